// CANN's lib/index/arithprogression.h: emulated in opkg_sim/adv_api/index/hl_index.h.
#include "opkg_sim/adv_api/index/hl_index.h"
