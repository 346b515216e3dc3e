// asc-devkit's adv_api/math/digamma.h (current CANN's include layout: include/, include/basic_api and
// include/adv_api on the kernel build's path); the sim declares it in lib/math/digamma.h.
#include "lib/math/digamma.h"
