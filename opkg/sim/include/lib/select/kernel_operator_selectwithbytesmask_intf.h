// CANN's lib/select/kernel_operator_selectwithbytesmask_intf.h: emulated in opkg_sim/adv_api/reduce/hl_reduce.h.
#include "opkg_sim/adv_api/reduce/hl_reduce.h"
