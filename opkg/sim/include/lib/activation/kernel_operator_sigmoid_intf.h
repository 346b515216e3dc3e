// CANN's lib/activation/kernel_operator_sigmoid_intf.h: Sigmoid, emulated in opkg_sim/adv_api/math/hl_math.h.
#include "opkg_sim/adv_api/math/hl_math.h"
