// CANN's lib/utils/init_global_memory.h: emulated in opkg_sim/vector_more.h.
#include "opkg_sim/vector_more.h"
