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

// The cube sizes the devkit's host tiling headers declare in namespace AscendC
// (include/adv_api/transpose/confusion_transpose_tiling.h, which its tiling_api.h includes; the
// ASCC_PARAM_* guards are the devkit's, shared with the kernel's kernel_utils_constants.h):
// ops-nn's quant_batch_matmul_v3 tiling says `using AscendC::BLOCK_CUBE; using AscendC::ONE_BLK_SIZE;`.
namespace AscendC {
constexpr uint32_t TWO_TIMES = 2;
#ifndef ASCC_PARAM_BLOCK_CUBE
#define ASCC_PARAM_BLOCK_CUBE
constexpr uint32_t BLOCK_CUBE = 16;
#endif
#ifndef ASCC_PARAM_ONE_BLK_SIZE
#define ASCC_PARAM_ONE_BLK_SIZE
constexpr uint32_t ONE_BLK_SIZE = 32;
#endif
#ifndef ASCC_PARAM_CUBE_MAX_SIZE
#define ASCC_PARAM_CUBE_MAX_SIZE
constexpr int32_t CUBE_MAX_SIZE = 256;
#endif
}  // namespace AscendC
#endif
