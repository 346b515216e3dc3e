// CANN's lib/normalization/layernorm.h: emulated in opkg_sim/hl_norm.h.
#include "opkg_sim/hl_norm.h"
