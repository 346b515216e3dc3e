// CANN's lib/activation/gelu.h: the activation library, emulated in opkg_sim/hl_activation.h.
#include "opkg_sim/hl_activation.h"
