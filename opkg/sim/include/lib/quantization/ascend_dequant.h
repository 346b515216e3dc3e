// CANN's lib/quantization/ascend_dequant.h: emulated in opkg_sim/hl_quant.h.
#include "opkg_sim/hl_quant.h"
