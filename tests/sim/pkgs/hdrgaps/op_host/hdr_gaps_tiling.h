#ifndef HDR_GAPS_TILING_H
#define HDR_GAPS_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
// host code's own constant; the kernel defines another of the same name (cann-ops
// StridedSliceAssignV2): a kernel sees only the tiling class, as CANN's generated struct
constexpr size_t MAX_DIM_NUM = 8;
BEGIN_TILING_DATA_DEF(HdrGapsTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, perBlock);   // elements of x each block scales
  TILING_DATA_FIELD_DEF(uint32_t, buffers);    // buffers the kernel gives its queues
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(HdrGaps, HdrGapsTilingData)
}
#endif
