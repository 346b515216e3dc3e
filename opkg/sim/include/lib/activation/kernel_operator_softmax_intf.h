// CANN's lib/activation/kernel_operator_softmax_intf.h: emulated in opkg_sim/hl_softmax.h.
#include "opkg_sim/hl_softmax.h"
