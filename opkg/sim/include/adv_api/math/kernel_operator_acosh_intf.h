// asc-devkit's adv_api/math/kernel_operator_acosh_intf.h (current CANN's include layout: include/, include/basic_api and
// include/adv_api on the kernel build's path); the sim declares it in lib/math/kernel_operator_acosh_intf.h.
#include "lib/math/kernel_operator_acosh_intf.h"
