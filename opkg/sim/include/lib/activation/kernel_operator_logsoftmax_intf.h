// CANN's lib/activation/kernel_operator_logsoftmax_intf.h: emulated in opkg_sim/adv_api/activation/hl_softmax_more.h.
#include "opkg_sim/adv_api/activation/hl_softmax_more.h"
