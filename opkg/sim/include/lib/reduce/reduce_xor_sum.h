// CANN's lib/reduce/reduce_xor_sum.h: emulated in opkg_sim/adv_api/reduce/hl_reduce_xor.h.
#include "opkg_sim/adv_api/reduce/hl_reduce_xor.h"
