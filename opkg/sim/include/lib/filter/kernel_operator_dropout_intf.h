// CANN's lib/filter/kernel_operator_dropout_intf.h: emulated in opkg_sim/hl_dropout.h.
#include "opkg_sim/hl_dropout.h"
