// CANN's lib/tiling_api.h: the high-level APIs' host tiling helpers.
#include "opkg_sim/hl_tiling.h"
