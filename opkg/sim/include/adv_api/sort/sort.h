// asc-devkit's adv_api/sort/sort.h (Sort, with the 950's SortConfig): emulated in
// opkg_sim/adv_api/sort/hl_sort.h, which kernel_operator.h already brings in.
#include "kernel_operator.h"
#include "opkg_sim/adv_api/sort/hl_sort.h"
