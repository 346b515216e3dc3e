// CANN's lib/math/tanh.h: the high-level math library, emulated in opkg_sim/hl_math.h.
#include "opkg_sim/hl_math.h"
