// CANN's lib/normalization/welfordfinalize_tiling.h: host tiling helpers, emulated in opkg_sim/host/hl_tiling_lib.h.
#include "opkg_sim/host/hl_tiling.h"
