// CANN's lib/transpose/confusion_transpose_tiling_intf.h: host tiling helpers, emulated in opkg_sim/host/hl_tiling_lib.h.
#include "opkg_sim/host/hl_tiling.h"
