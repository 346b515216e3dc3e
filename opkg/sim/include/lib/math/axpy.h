// CANN's lib/math/axpy.h: the high-level math library, emulated in opkg_sim/adv_api/math/hl_math.h.
#include "opkg_sim/adv_api/math/hl_math.h"
