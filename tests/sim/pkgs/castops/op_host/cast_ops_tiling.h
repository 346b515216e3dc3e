#ifndef CAST_OPS_TILING_H
#define CAST_OPS_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CastOpsTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, words);   // 32-bit words of x, y and z
  TILING_DATA_FIELD_DEF(float, scalar);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(CastOps, CastOpsTilingData)
}
#endif
