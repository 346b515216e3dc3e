// asc-devkit's basic_api/kernel_operator_intf.h (current CANN's include layout: include/, include/basic_api and
// include/adv_api on the kernel build's path); the sim declares it in kernel_operator.h.
#include "kernel_operator.h"
