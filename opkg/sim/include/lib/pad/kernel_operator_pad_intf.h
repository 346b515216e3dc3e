// CANN's lib/pad/kernel_operator_pad_intf.h: emulated in opkg_sim/adv_api/pad/hl_pad2d.h.
#include "opkg_sim/adv_api/pad/hl_pad2d.h"
