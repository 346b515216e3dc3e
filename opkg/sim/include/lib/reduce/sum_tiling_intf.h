// CANN's lib/reduce/sum_tiling_intf.h: emulated in opkg_sim/host/hl_tiling.h.
#include "opkg_sim/host/hl_tiling.h"
