// CANN's lib/activation/kernel_operator_logsoftmax_intf.h: emulated in opkg_sim/hl_softmax_more.h.
#include "opkg_sim/hl_softmax_more.h"
