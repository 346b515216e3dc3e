#ifndef HL_NORM_TILING_H
#define HL_NORM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(HlNormTilingData)
  TILING_DATA_FIELD_DEF(float, scale);
  TILING_DATA_FIELD_DEF(float, offset);
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(uint32_t, valid);   // valid elements of each 64-element row
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(HlNorm, HlNormTilingData)
}
#endif
