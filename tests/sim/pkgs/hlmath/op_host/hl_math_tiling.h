#ifndef HL_MATH_TILING_H
#define HL_MATH_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(HlMathTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, padded);   // elements moved by DataCopy
  TILING_DATA_FIELD_DEF(uint32_t, count);    // calCount
  TILING_DATA_FIELD_DEF(int32_t, tmpBytes);  // sharedTmpBuffer bytes; -1: the form without one
  TILING_DATA_FIELD_DEF(float, scalar);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(HlMath, HlMathTilingData)
}
#endif
