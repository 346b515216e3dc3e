// asc-devkit's adv_api/math/atan.h (current CANN's include layout: include/, include/basic_api and
// include/adv_api on the kernel build's path); the sim declares it in lib/math/atan.h.
#include "lib/math/atan.h"
