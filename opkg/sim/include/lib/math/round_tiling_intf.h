// CANN's lib/math/round_tiling_intf.h: host tiling helpers, emulated in opkg_sim/host/hl_tiling.h.
#include "opkg_sim/host/hl_tiling.h"
