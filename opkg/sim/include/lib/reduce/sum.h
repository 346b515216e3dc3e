// CANN's lib/reduce/sum.h: emulated in opkg_sim/adv_api/reduce/hl_reduce.h.
#include "opkg_sim/adv_api/reduce/hl_reduce.h"
