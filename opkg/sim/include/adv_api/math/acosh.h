// asc-devkit's adv_api/math/acosh.h (current CANN's include layout: include/, include/basic_api and
// include/adv_api on the kernel build's path); the sim declares it in lib/math/acosh.h.
#include "lib/math/acosh.h"
