// CANN's lib/activation/kernel_operator_softmax_intf.h: emulated in opkg_sim/adv_api/activation/hl_softmax.h.
#include "opkg_sim/adv_api/activation/hl_softmax.h"
