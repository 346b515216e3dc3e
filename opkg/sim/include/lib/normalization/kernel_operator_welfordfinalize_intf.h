// CANN's lib/normalization/kernel_operator_welfordfinalize_intf.h: emulated in opkg_sim/adv_api/normalization/hl_norm.h.
#include "opkg_sim/adv_api/normalization/hl_norm.h"
