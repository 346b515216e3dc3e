// CANN's lib/activation/softmaxgrad.h: emulated in opkg_sim/hl_softmax_more.h.
#include "opkg_sim/hl_softmax_more.h"
