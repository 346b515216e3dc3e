// CANN's lib/filter/dropout.h: emulated in opkg_sim/adv_api/filter/hl_dropout.h.
#include "opkg_sim/adv_api/filter/hl_dropout.h"
