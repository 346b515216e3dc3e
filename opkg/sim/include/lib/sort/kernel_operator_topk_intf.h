// CANN's lib/sort/kernel_operator_topk_intf.h: emulated in opkg_sim/adv_api/sort/hl_topk.h.
#include "opkg_sim/adv_api/sort/hl_topk.h"
