// CANN's lib/sort/topk_tiling_intf.h: host tiling helpers, emulated in opkg_sim/host/hl_tiling_lib.h.
#include "opkg_sim/host/hl_tiling.h"
