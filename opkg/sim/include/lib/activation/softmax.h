// CANN's lib/activation/softmax.h: emulated in opkg_sim/hl_softmax.h.
#include "opkg_sim/hl_softmax.h"
