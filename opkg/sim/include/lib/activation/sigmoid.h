// CANN's lib/activation/sigmoid.h: Sigmoid, emulated in opkg_sim/hl_math.h.
#include "opkg_sim/hl_math.h"
