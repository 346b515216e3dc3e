#ifndef HL_SOFTMAX2_TILING_H
#define HL_SOFTMAX2_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(HlSoftmax2TilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, cols);
  TILING_DATA_FIELD_DEF(uint32_t, from);     // AdjustSoftMaxRes: the max bits to look for
  TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, softmaxTiling);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(HlSoftmax2, HlSoftmax2TilingData)
}
#endif
