// CANN's lib/activation/logsoftmax.h: emulated in opkg_sim/hl_softmax_more.h.
#include "opkg_sim/hl_softmax_more.h"
