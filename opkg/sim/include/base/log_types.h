// CANN's base/log_types.h: log levels, log types and module ids (values as CANN's).
#ifndef OPKG_SIM_BASE_LOG_TYPES_H
#define OPKG_SIM_BASE_LOG_TYPES_H

#define LOG_FUNC_VISIBILITY __attribute__((visibility("default")))

#define DLOG_DEBUG 0x0
#define DLOG_INFO 0x1
#define DLOG_WARN 0x2
#define DLOG_ERROR 0x3

enum { DLOG_TYPE_DEBUG = 0, DLOG_TYPE_RUN = 1, DLOG_TYPE_MAX };

#define MSG_LENGTH 1024

// The module ids operator code names (OP for operators, TUNE for the AOE tuning code of cann-ops'
// shared host library); the rest of CANN's list is not needed.
enum { SLOG = 0, FMK = 4, RUNTIME = 7, CCE = 8, KERNEL = 23, FE = 39, GE = 45, ASCENDCL = 48, TBE = 57, TUNE = 60, OP = 63,
       ASCENDCKERNEL = 69, INVLID_MOUDLE_ID = 76 };

#endif
