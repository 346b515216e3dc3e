// CANN generates this header for kernels; in the sim the package's tiling header is
// force-included instead (opkg/sim/flags.py). A kernel-side header that includes it still finds
// the API tiling structs (ops-nn's plain tiling structs hold a `TCubeTiling matmulTiling`), as the
// generated tiling source gives them after the package's header (kernel_tiling_lib.h). On the
// host CANN's header gives the plain tiling structs (ops-nn's host tilings embed ::TCubeTiling in
// their own structs): the sim's host declares the same (opkg_sim/host/plain_tiling.h).
#ifndef OPKG_SIM_KERNEL_TILING_KERNEL_TILING_H
#define OPKG_SIM_KERNEL_TILING_KERNEL_TILING_H
#include "opkg_sim/basic_api/core/tiling_slot.h"
#ifdef OPKG_SIM_KERNEL
#include "opkg_sim/adv_api/kernel_tiling_lib.h"
#else
#include "opkg_sim/host/plain_tiling.h"
#endif
#endif
