// asc-devkit's basic_api/kernel_common.h (current CANN's include layout: include/basic_api is on
// the kernel build's path, so kernels include it by its name: ops-nn's conv3d kernels). It gives
// the basic API's macros, events, log, utilities, GetTPipePtr and the system variables, all of
// which the sim declares in kernel_operator.h.
#include "kernel_operator.h"
