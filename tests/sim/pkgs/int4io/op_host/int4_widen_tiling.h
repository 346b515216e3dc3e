#ifndef INT4_WIDEN_TILING_H
#define INT4_WIDEN_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Int4WidenTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);         // int4 elements of x (and of z)
  TILING_DATA_FIELD_DEF(int32_t, firstByte);  // x's first GM byte as the host saw it (packed)
  TILING_DATA_FIELD_DEF(uint32_t, overrun);   // 1: copy x into a LocalTensor half its size
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Int4Widen, Int4WidenTilingData)
}
#endif
