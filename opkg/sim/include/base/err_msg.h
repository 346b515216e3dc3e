// CANN's base/err_msg.h: REPORT_INNER_ERR_MSG and friends (namespace error_message, also
// reachable as ge::). The sim writes the message to stderr with its error code and where it was
// raised; REG_FORMAT_ERROR_MSG (a library registering its error-code table, a JSON text) is
// accepted and the table is not used.
#ifndef OPKG_SIM_BASE_ERR_MSG_H
#define OPKG_SIM_BASE_ERR_MSG_H

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <vector>
#include "graph/types.h"

#define REPORT_INNER_ERR_MSG(error_code, format, ...) \
    (void)error_message::ReportInnerErrMsg(__FILE__, __FUNCTION__, __LINE__, (error_code), (format), ##__VA_ARGS__)
#define REPORT_USER_DEFINED_ERR_MSG(error_code, format, ...) \
    (void)error_message::ReportUserDefinedErrMsg((error_code), (format), ##__VA_ARGS__)
// one argument (the code) or three (code, keys, values): two overloads
#define REPORT_PREDEFINED_ERR_MSG(...) error_message::ReportPredefinedErrMsg(__VA_ARGS__)
#define OPKG_SIM_ERRMSG_CAT2(a, b) a##b
#define OPKG_SIM_ERRMSG_CAT(a, b) OPKG_SIM_ERRMSG_CAT2(a, b)
#define REG_FORMAT_ERROR_MSG(error_msg, error_msg_len)                                                        \
    [[maybe_unused]] static const int32_t OPKG_SIM_ERRMSG_CAT(opkg_sim_error_table_, __COUNTER__) = \
        error_message::RegisterFormatErrorMessage((error_msg), (error_msg_len))

namespace error_message {

inline int32_t RegisterFormatErrorMessage(const char* error_msg, size_t) { return error_msg ? 0 : -1; }

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

inline int32_t ReportPredefinedErrMsg(const char* error_code) {
    std::fprintf(stderr, "[%s]\n", error_code);
    return 0;
}

}  // namespace error_message

namespace ge {
using error_message::RegisterFormatErrorMessage;
using error_message::ReportInnerErrMsg;
using error_message::ReportPredefinedErrMsg;
using error_message::ReportUserDefinedErrMsg;
}  // namespace ge
#endif
