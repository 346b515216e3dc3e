// CANN's lib/math/cumsum_utils.h: emulated in opkg_sim/hl_cumsum.h.
#include "opkg_sim/hl_cumsum.h"
