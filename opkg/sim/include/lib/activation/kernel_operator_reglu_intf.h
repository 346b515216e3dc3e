// CANN's lib/activation/kernel_operator_reglu_intf.h: the activation library, emulated in opkg_sim/hl_activation.h.
#include "opkg_sim/hl_activation.h"
