// CANN's OS abstraction (mmpa), the part host code of operators calls: the calling thread's id
// for log lines (cann-ops' aoe tuning and runtime knowledge-bank logs).
#ifndef OPKG_SIM_MMPA_API_H
#define OPKG_SIM_MMPA_API_H

#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>

inline int32_t mmGetTid() { return static_cast<int32_t>(syscall(SYS_gettid)); }
inline int32_t mmGetPid() { return static_cast<int32_t>(getpid()); }

#endif
