// CANN's lib/pad/kernel_operator_pad_intf.h: emulated in opkg_sim/hl_pad2d.h.
#include "opkg_sim/hl_pad2d.h"
