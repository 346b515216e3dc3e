// CANN generates this header for kernels; in the sim the package's tiling header is
// force-included instead (opkg/sim/flags.py), so there is nothing left to declare.
#include "opkg_sim/basic_api/core/tiling_slot.h"
