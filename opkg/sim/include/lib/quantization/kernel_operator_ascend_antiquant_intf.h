// CANN's lib/quantization/kernel_operator_ascend_antiquant_intf.h: emulated in opkg_sim/adv_api/quantization/hl_quant.h.
#include "opkg_sim/adv_api/quantization/hl_quant.h"
