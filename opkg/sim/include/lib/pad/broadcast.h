// CANN's lib/pad/broadcast.h: emulated in opkg_sim/hl_pad.h.
#include "opkg_sim/hl_pad.h"
