// CANN's lib/quantization/kernel_operator_ascend_quant_intf.h: emulated in opkg_sim/hl_quant.h.
#include "opkg_sim/hl_quant.h"
