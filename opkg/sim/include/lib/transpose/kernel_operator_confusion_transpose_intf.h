// CANN's lib/transpose/kernel_operator_confusion_transpose_intf.h: emulated in opkg_sim/adv_api/transpose/hl_transpose.h.
#include "opkg_sim/adv_api/transpose/hl_transpose.h"
