// asc-devkit's adv_api/math/erfc.h (current CANN's include layout: include/, include/basic_api and
// include/adv_api on the kernel build's path); the sim declares it in lib/math/erfc.h.
#include "lib/math/erfc.h"
