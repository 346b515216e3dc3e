// CANN's securec.h (the bounds-checked C string and memory functions host code calls), written
// from its documented contract: a copy that does not fit its destination copies nothing, clears
// the destination and returns an error code (values as CANN's); the printf forms return -1.
#ifndef OPKG_SIM_SECUREC_H
#define OPKG_SIM_SECUREC_H

#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstring>

#ifndef errno_t
typedef int errno_t;
#endif
#ifndef EOK
#define EOK 0
#endif
#ifndef EINVAL
#define EINVAL 22
#endif
#ifndef EINVAL_AND_RESET
#define EINVAL_AND_RESET 150
#endif
#ifndef ERANGE
#define ERANGE 34
#endif
#ifndef ERANGE_AND_RESET
#define ERANGE_AND_RESET 162
#endif
#ifndef EOVERLAP_AND_RESET
#define EOVERLAP_AND_RESET 182
#endif

inline errno_t memset_s(void* dest, size_t destMax, int c, size_t count) {
    if (dest == nullptr || destMax == 0) return EINVAL;
    if (count > destMax) {
        std::memset(dest, c, destMax);
        return ERANGE_AND_RESET;
    }
    std::memset(dest, c, count);
    return EOK;
}

inline errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count) {
    if (dest == nullptr || destMax == 0) return EINVAL;
    if (src == nullptr) {
        std::memset(dest, 0, destMax);
        return EINVAL_AND_RESET;
    }
    if (count > destMax) {
        std::memset(dest, 0, destMax);
        return ERANGE_AND_RESET;
    }
    std::memmove(dest, src, count);
    return EOK;
}

inline errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
    if (dest == nullptr || destMax == 0) return EINVAL;
    if (src == nullptr) {
        std::memset(dest, 0, destMax);
        return EINVAL_AND_RESET;
    }
    if (count > destMax) {
        std::memset(dest, 0, destMax);
        return ERANGE_AND_RESET;
    }
    const char* d = static_cast<const char*>(dest);
    const char* s = static_cast<const char*>(src);
    if (count && ((d <= s && s < d + count) || (s <= d && d < s + count))) {
        std::memset(dest, 0, destMax);
        return EOVERLAP_AND_RESET;
    }
    std::memcpy(dest, src, count);
    return EOK;
}

inline errno_t strncpy_s(char* dest, size_t destMax, const char* src, size_t count) {
    if (dest == nullptr || destMax == 0) return EINVAL;
    if (src == nullptr) {
        dest[0] = '\0';
        return EINVAL_AND_RESET;
    }
    size_t n = ::strnlen(src, count);
    if (n >= destMax) {
        dest[0] = '\0';
        return ERANGE_AND_RESET;
    }
    std::memmove(dest, src, n);
    dest[n] = '\0';
    return EOK;
}

inline errno_t strcpy_s(char* dest, size_t destMax, const char* src) {
    return strncpy_s(dest, destMax, src, src ? std::strlen(src) : 0);
}

inline errno_t strncat_s(char* dest, size_t destMax, const char* src, size_t count) {
    if (dest == nullptr || destMax == 0) return EINVAL;
    size_t have = ::strnlen(dest, destMax);
    if (src == nullptr || have == destMax) {
        dest[0] = '\0';
        return src == nullptr ? EINVAL_AND_RESET : ERANGE_AND_RESET;
    }
    size_t n = ::strnlen(src, count);
    if (have + n >= destMax) {
        dest[0] = '\0';
        return ERANGE_AND_RESET;
    }
    std::memmove(dest + have, src, n);
    dest[have + n] = '\0';
    return EOK;
}

inline errno_t strcat_s(char* dest, size_t destMax, const char* src) {
    return strncat_s(dest, destMax, src, src ? std::strlen(src) : 0);
}

// count < destMax: at most count characters are kept, and -1 says the text was cut there;
// otherwise a text that does not fit destMax is an error: dest cleared, -1.
inline int vsnprintf_s(char* dest, size_t destMax, size_t count, const char* format, va_list ap) {
    if (dest == nullptr || destMax == 0 || format == nullptr) return -1;
    if (count < destMax) {
        int n = std::vsnprintf(dest, count + 1, format, ap);
        if (n < 0) {
            dest[0] = '\0';
            return -1;
        }
        return static_cast<size_t>(n) > count ? -1 : n;
    }
    int n = std::vsnprintf(dest, destMax, format, ap);
    if (n < 0 || static_cast<size_t>(n) >= destMax) {
        dest[0] = '\0';
        return -1;
    }
    return n;
}

__attribute__((format(printf, 4, 5))) inline int snprintf_s(char* dest, size_t destMax, size_t count,
                                                            const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf_s(dest, destMax, count, format, ap);
    va_end(ap);
    return n;
}

inline int vsprintf_s(char* dest, size_t destMax, const char* format, va_list ap) {
    return vsnprintf_s(dest, destMax, destMax - (destMax ? 1 : 0), format, ap);
}

__attribute__((format(printf, 3, 4))) inline int sprintf_s(char* dest, size_t destMax, const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    int n = vsprintf_s(dest, destMax, format, ap);
    va_end(ap);
    return n;
}

#endif
