// CANN's base/err_msg.h: REPORT_INNER_ERR_MSG and friends. The sim writes the message to stderr
// with its error code and where it was raised.
#ifndef OPKG_SIM_BASE_ERR_MSG_H
#define OPKG_SIM_BASE_ERR_MSG_H

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <vector>
#include "graph/types.h"

#define REPORT_INNER_ERR_MSG(error_code, format, ...) \
    (void)ge::ReportInnerErrMsg(__FILE__, __FUNCTION__, __LINE__, (error_code), (format), ##__VA_ARGS__)

namespace ge {

__attribute__((format(printf, 5, 6))) inline int32_t ReportInnerErrMsg(const char* file, const char* func,
                                                                        uint32_t line, const char* error_code,
                                                                        const char* format, ...) {
    std::fprintf(stderr, "%s:%u: %s: [%s] ", file, line, func, error_code);
    va_list ap;
    va_start(ap, format);
    std::vfprintf(stderr, format, ap);
    va_end(ap);
    std::fputc('\n', stderr);
    return 0;
}

__attribute__((format(printf, 2, 3))) inline int32_t ReportUserDefinedErrMsg(const char* error_code,
                                                                              const char* format, ...) {
    std::fprintf(stderr, "[%s] ", error_code);
    va_list ap;
    va_start(ap, format);
    std::vfprintf(stderr, format, ap);
    va_end(ap);
    std::fputc('\n', stderr);
    return 0;
}

inline int32_t ReportPredefinedErrMsg(const char* error_code, const std::vector<const char*>& key,
                                      const std::vector<const char*>& value) {
    std::fprintf(stderr, "[%s]", error_code);
    for (size_t i = 0; i < key.size() && i < value.size(); ++i) std::fprintf(stderr, " %s=%s", key[i], value[i]);
    std::fputc('\n', stderr);
    return 0;
}

}  // namespace ge
#endif
