// CANN's lib/filter/kernel_operator_dropout_intf.h: emulated in opkg_sim/adv_api/filter/hl_dropout.h.
#include "opkg_sim/adv_api/filter/hl_dropout.h"
