// CANN's lib/activation/softmax.h: emulated in opkg_sim/adv_api/activation/hl_softmax.h.
#include "opkg_sim/adv_api/activation/hl_softmax.h"
