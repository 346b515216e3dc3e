// CANN's lib/activation/swish_tiling_intf.h: host tiling helpers, emulated in opkg_sim/host/hl_tiling.h.
#include "opkg_sim/host/hl_tiling.h"
