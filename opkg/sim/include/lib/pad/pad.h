// CANN's lib/pad/pad.h: emulated in opkg_sim/hl_pad2d.h.
#include "opkg_sim/hl_pad2d.h"
