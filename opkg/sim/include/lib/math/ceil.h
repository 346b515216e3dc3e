// CANN's lib/math/ceil.h: the high-level math library, emulated in opkg_sim/hl_math.h.
#include "opkg_sim/hl_math.h"
