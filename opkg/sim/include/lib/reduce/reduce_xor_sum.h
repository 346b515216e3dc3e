// CANN's lib/reduce/reduce_xor_sum.h: emulated in opkg_sim/hl_reduce_xor.h.
#include "opkg_sim/hl_reduce_xor.h"
