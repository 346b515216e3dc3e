// CANN's base/alog_pub.h (the log library's C entry points), answered by the sim: a message of
// level >= ASCEND_GLOBAL_LOG_LEVEL (CANN's variable; default 3, errors only) goes to stderr,
// which the build shows with the tiling step's output.
#ifndef OPKG_SIM_BASE_ALOG_PUB_H
#define OPKG_SIM_BASE_ALOG_PUB_H

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include "base/log_types.h"

// cann-ops' shared log header (common/inc/log/inner/dfx_base.h) prints these two in every
// message; cann-ops' build defines them for each host library (src/common/CMakeLists.txt:
// "OP_TILING", "[Custom]" in an open build). A package built by opkg gets the same unless it
// defines its own first.
#ifndef OPS_UTILS_LOG_SUB_MOD_NAME
#define OPS_UTILS_LOG_SUB_MOD_NAME "OP_TILING"
#endif
#ifndef OPS_UTILS_LOG_PACKAGE_TYPE
#define OPS_UTILS_LOG_PACKAGE_TYPE "[Custom]"
#endif

inline int32_t AlogCheckDebugLevel(uint32_t, int32_t level) {
    const char* env = std::getenv("ASCEND_GLOBAL_LOG_LEVEL");
    int32_t threshold = env && *env ? std::atoi(env) : DLOG_ERROR;
    return level >= threshold ? 1 : 0;
}

namespace opkg_sim {
// one log line on stderr (AlogRecord here, DlogRecord in the host runtime)
inline void vlog(int32_t level, const char* fmt, va_list ap) {
    static const char* const names[] = {"DEBUG", "INFO", "WARNING", "ERROR"};
    std::fprintf(stderr, "[%s] ", level >= 0 && level <= 3 ? names[level] : "LOG");
    std::vfprintf(stderr, fmt, ap);
    std::fputc('\n', stderr);
}
}  // namespace opkg_sim

__attribute__((format(printf, 4, 5))) inline int32_t AlogRecord(uint32_t, uint32_t, int32_t level, const char* fmt,
                                                                 ...) {
    va_list ap;
    va_start(ap, fmt);
    opkg_sim::vlog(level, fmt, ap);
    va_end(ap);
    return 0;
}

#endif
