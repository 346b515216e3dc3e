// CANN's lib/activation/sigmoid.h: Sigmoid, emulated in opkg_sim/adv_api/math/hl_math.h.
#include "opkg_sim/adv_api/math/hl_math.h"
