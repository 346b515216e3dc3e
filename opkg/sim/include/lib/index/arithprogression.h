// CANN's lib/index/arithprogression.h: emulated in opkg_sim/hl_index.h.
#include "opkg_sim/hl_index.h"
