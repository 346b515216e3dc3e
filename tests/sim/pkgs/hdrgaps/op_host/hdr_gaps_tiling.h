#ifndef HDR_GAPS_TILING_H
#define HDR_GAPS_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(HdrGapsTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, perBlock);   // elements of x each block scales
  TILING_DATA_FIELD_DEF(uint32_t, buffers);    // buffers the kernel gives its queues
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(HdrGaps, HdrGapsTilingData)
}
#endif
