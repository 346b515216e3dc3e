// CANN's lib/reduce/mean.h: emulated in opkg_sim/hl_reduce.h.
#include "opkg_sim/hl_reduce.h"
