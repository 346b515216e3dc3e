#ifndef HL_SOFTMAX_TILING_H
#define HL_SOFTMAX_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(HlSoftmaxTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, cols);      // row length in elements (32-byte multiple)
  TILING_DATA_FIELD_DEF(uint32_t, valid);     // valid elements per row
  TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);
  TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, softmaxTiling);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(HlSoftmax, HlSoftmaxTilingData)
}
#endif
