// asc-devkit's adv_api/math/frac.h (current CANN's include layout: include/, include/basic_api and
// include/adv_api on the kernel build's path); the sim declares it in lib/math/frac.h.
#include "lib/math/frac.h"
