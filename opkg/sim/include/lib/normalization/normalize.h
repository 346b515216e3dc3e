// CANN's lib/normalization/normalize.h: emulated in opkg_sim/hl_norm.h.
#include "opkg_sim/hl_norm.h"
