// CANN's lib/math/cumsum.h: emulated in opkg_sim/adv_api/math/hl_cumsum.h.
#include "opkg_sim/adv_api/math/hl_cumsum.h"
