// CANN's dlog_pub.h: the log library's C entry points that operator code calls directly (the
// base library's log/log.h: `if (CheckLogLevel(id, level) == 1) DlogRecord(id, level, fmt, ...)`).
// The sim's host runtime defines them (src/host_runtime.cpp) with base/alog_pub.h's behaviour:
// level >= ASCEND_GLOBAL_LOG_LEVEL (default 3, errors only) goes to stderr.
#ifndef OPKG_SIM_DLOG_PUB_H
#define OPKG_SIM_DLOG_PUB_H

#include <cstdint>
#include "base/log_types.h"

extern "C" {
int32_t CheckLogLevel(int32_t moduleId, int32_t logLevel);
void DlogRecord(int32_t moduleId, int32_t level, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
}

#endif
