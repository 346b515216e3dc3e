// CANN's lib/pad/broadcast.h: emulated in opkg_sim/adv_api/pad/hl_pad.h.
#include "opkg_sim/adv_api/pad/hl_pad.h"
