// CANN's lib/utils/init_global_memory.h: emulated in opkg_sim/basic_api/vector/vector_more.h.
#include "opkg_sim/basic_api/vector/vector_more.h"
