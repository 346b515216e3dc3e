// asc-devkit's adv_api/reduce/reduce_common.h (the Pattern::Reduce structs):
// emulated in opkg_sim/adv_api/reduce/hl_reduce_pattern.h.
#include "kernel_operator.h"
#include "opkg_sim/adv_api/reduce/hl_reduce_pattern.h"
