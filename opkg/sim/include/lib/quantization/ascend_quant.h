// CANN's lib/quantization/ascend_quant.h: emulated in opkg_sim/adv_api/quantization/hl_quant.h.
#include "opkg_sim/adv_api/quantization/hl_quant.h"
