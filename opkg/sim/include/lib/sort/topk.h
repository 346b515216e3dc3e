// CANN's lib/sort/topk.h: emulated in opkg_sim/hl_topk.h.
#include "opkg_sim/hl_topk.h"
