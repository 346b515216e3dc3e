#ifndef HL_SOFTMAX3_TILING_H
#define HL_SOFTMAX3_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(HlSoftmax3TilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, cols);
  TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);
  TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, softmaxTiling);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(HlSoftmax3, HlSoftmax3TilingData)
}
#endif
