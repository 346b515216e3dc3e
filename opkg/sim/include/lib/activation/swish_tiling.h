// CANN's lib/activation/swish_tiling.h: host tiling helpers, emulated in opkg_sim/host/hl_tiling.h.
#include "opkg_sim/host/hl_tiling.h"
