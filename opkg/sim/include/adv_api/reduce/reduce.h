// asc-devkit's adv_api/reduce/reduce.h (the pattern reduce API, ReduceSum<T, Pattern::Reduce::AR>...):
// emulated in opkg_sim/adv_api/reduce/hl_reduce_pattern.h.
#include "kernel_operator.h"
#include "opkg_sim/adv_api/reduce/hl_reduce_pattern.h"
