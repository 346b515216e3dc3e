// CANN's lib/normalization/layernormgradbeta.h: emulated in opkg_sim/adv_api/normalization/hl_norm.h.
#include "opkg_sim/adv_api/normalization/hl_norm.h"
