// CANN's lib/sort/topk.h: emulated in opkg_sim/adv_api/sort/hl_topk.h.
#include "opkg_sim/adv_api/sort/hl_topk.h"
