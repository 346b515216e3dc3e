// asc-devkit's basic_api header of the block synchronisation calls (SyncAll, CrossCoreSetFlag,
// CrossCoreWaitFlag, NotifyEvent, WaitEvent, ...): in the sim they come with kernel_operator.h
// (ops-nn's matmul common mem.h includes this header by name).
#include "kernel_operator.h"
