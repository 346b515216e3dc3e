// Force-included after the package's tiling header in kernel builds: CANN declares kernel
// tiling structs at global scope, so kernels name them unqualified.
#ifndef OPKG_SIM_KERNEL_TILING_USING_H
#define OPKG_SIM_KERNEL_TILING_USING_H
#include "opkg_sim/basic_api/core/tiling_slot.h"
using namespace optiling;
#endif
