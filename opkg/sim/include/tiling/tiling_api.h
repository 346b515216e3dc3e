// Umbrella the samples include for host-side tiling helpers.
#ifndef OPKG_SIM_TILING_API_H
#define OPKG_SIM_TILING_API_H
#include <algorithm>   // CANN's lib/tiling_api.h has it through select/selectwithbytesmask_tiling.h
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"
// The high-level APIs' host helpers (Get<Api>MaxMinTmpSize, ...), as CANN's lib/tiling_api.h.
#include "opkg_sim/host/hl_tiling.h"
// The high-level Matmul's TCubeTiling and host tiling classes (matmul_tiling::).
#include "opkg_sim/host/host_matmul_tiling.h"
#endif
