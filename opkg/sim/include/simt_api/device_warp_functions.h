// asc-devkit's include/simt_api/device_warp_functions.h as kernels include it: the sim's SIMT model
// (opkg_sim/simt/simt.h) and its math functions (opkg_sim/simt/simt_math.h).
#pragma once
#include "opkg_sim/simt/simt_math.h"
