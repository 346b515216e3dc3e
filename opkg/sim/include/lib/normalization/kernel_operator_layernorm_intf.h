// CANN's lib/normalization/kernel_operator_layernorm_intf.h: emulated in opkg_sim/hl_norm.h.
#include "opkg_sim/hl_norm.h"
