// CANN's lib/math/kernel_operator_sinh_intf.h: the high-level math library, emulated in opkg_sim/adv_api/math/hl_math.h.
#include "opkg_sim/adv_api/math/hl_math.h"
