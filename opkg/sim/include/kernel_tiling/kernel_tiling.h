// CANN generates this header for kernels; in the sim the package's tiling header is
// force-included instead (opkg/sim/flags.py), so a kernel finds nothing left to declare here. On
// the host CANN's header gives the plain tiling structs (ops-nn's host tilings embed ::TCubeTiling
// in their own structs): the sim's host declares the same (opkg_sim/host/plain_tiling.h).
#include "opkg_sim/basic_api/core/tiling_slot.h"
#ifndef OPKG_SIM_KERNEL
#include "opkg_sim/host/plain_tiling.h"
#endif
