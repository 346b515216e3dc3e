// CANN's lib/reduce/kernel_operator_mean_intf.h: emulated in opkg_sim/adv_api/reduce/hl_reduce.h.
#include "opkg_sim/adv_api/reduce/hl_reduce.h"
