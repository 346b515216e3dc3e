// CANN's lib/reduce/mean_tiling.h: emulated in opkg_sim/host/hl_tiling.h.
#include "opkg_sim/host/hl_tiling.h"
