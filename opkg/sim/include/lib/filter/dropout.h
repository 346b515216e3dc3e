// CANN's lib/filter/dropout.h: emulated in opkg_sim/hl_dropout.h.
#include "opkg_sim/hl_dropout.h"
