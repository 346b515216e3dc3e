// CANN's lib/math/floor_tiling.h: host tiling helpers, emulated in opkg_sim/hl_tiling.h.
#include "opkg_sim/hl_tiling.h"
