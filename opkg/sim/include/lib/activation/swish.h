// CANN's lib/activation/swish.h: the activation library, emulated in opkg_sim/adv_api/activation/hl_activation.h.
#include "opkg_sim/adv_api/activation/hl_activation.h"
