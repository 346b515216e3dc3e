// CANN's lib/pad/pad.h: emulated in opkg_sim/adv_api/pad/hl_pad2d.h.
#include "opkg_sim/adv_api/pad/hl_pad2d.h"
