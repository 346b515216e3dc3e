// asc-devkit's adv_api/math/cos.h (current CANN's include layout: include/, include/basic_api and
// include/adv_api on the kernel build's path); the sim declares it in lib/math/cos.h.
#include "lib/math/cos.h"
