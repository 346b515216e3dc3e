// CANN's lib/tiling_api.h: the high-level APIs' host tiling helpers.
#include "opkg_sim/host/hl_tiling.h"
// The high-level Matmul's TCubeTiling and host tiling classes (matmul_tiling::).
#include "opkg_sim/host/host_matmul_tiling.h"
