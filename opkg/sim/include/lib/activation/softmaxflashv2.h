// CANN's lib/activation/softmaxflashv2.h: emulated in opkg_sim/hl_softmax_more.h.
#include "opkg_sim/hl_softmax_more.h"
