// CANN's lib/index/kernel_operator_arithprogression_intf.h: emulated in opkg_sim/adv_api/index/hl_index.h.
#include "opkg_sim/adv_api/index/hl_index.h"
