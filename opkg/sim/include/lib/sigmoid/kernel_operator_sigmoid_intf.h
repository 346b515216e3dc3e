// CANN's lib/sigmoid/kernel_operator_sigmoid_intf.h: Sigmoid (the path of releases before 8.1), emulated in opkg_sim/adv_api/math/hl_math.h.
#include "opkg_sim/adv_api/math/hl_math.h"
