#ifndef VEC_OPS_TILING_H
#define VEC_OPS_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(VecOpsTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, padded);   // elements moved by DataCopy (32-byte multiple)
  TILING_DATA_FIELD_DEF(uint32_t, count);    // elements the vector op computes
  TILING_DATA_FIELD_DEF(float, scalar);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(VecOps, VecOpsTilingData)
}
#endif
