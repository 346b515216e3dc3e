// CANN's lib/quantization/ascend_quant.h: emulated in opkg_sim/hl_quant.h.
#include "opkg_sim/hl_quant.h"
