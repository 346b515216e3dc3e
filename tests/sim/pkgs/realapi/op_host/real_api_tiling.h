#ifndef REAL_API_TILING_H
#define REAL_API_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RealApiTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, padded);   // elements of x, y and z (a 32-byte multiple)
  TILING_DATA_FIELD_DEF(uint32_t, count);    // elements the case works on
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(RealApi, RealApiTilingData)
}
#endif
