// CANN's lib/select/selectwithbytesmask_tiling.h: emulated in opkg_sim/hl_tiling.h.
#include "opkg_sim/hl_tiling.h"
