// CANN's lib/transpose/confusion_transpose.h: emulated in opkg_sim/adv_api/transpose/hl_transpose.h.
#include "opkg_sim/adv_api/transpose/hl_transpose.h"
