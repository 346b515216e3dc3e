// asc-devkit's adv_api/sort/topk.h: emulated in opkg_sim/adv_api/sort/hl_topk.h, which
// kernel_operator.h already brings in.
#include "kernel_operator.h"
#include "opkg_sim/adv_api/sort/hl_topk.h"
