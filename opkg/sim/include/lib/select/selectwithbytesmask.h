// CANN's lib/select/selectwithbytesmask.h: emulated in opkg_sim/hl_reduce.h.
#include "opkg_sim/hl_reduce.h"
