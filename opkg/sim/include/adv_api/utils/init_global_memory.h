// asc-devkit's adv_api/utils/init_global_memory.h (current CANN's include layout: include/, include/basic_api and
// include/adv_api on the kernel build's path); the sim declares it in lib/utils/init_global_memory.h.
#include "lib/utils/init_global_memory.h"
