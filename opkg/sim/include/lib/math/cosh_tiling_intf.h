// CANN's lib/math/cosh_tiling_intf.h: host tiling helpers, emulated in opkg_sim/hl_tiling.h.
#include "opkg_sim/hl_tiling.h"
