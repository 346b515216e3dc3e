// CANN's lib/activation/softmaxflashv3.h: emulated in opkg_sim/adv_api/activation/hl_softmax_more.h.
#include "opkg_sim/adv_api/activation/hl_softmax_more.h"
