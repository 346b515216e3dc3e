// CANN's lib/normalization/groupnorm.h: emulated in opkg_sim/hl_norm.h.
#include "opkg_sim/hl_norm.h"
