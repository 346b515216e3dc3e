#ifndef INT4_CAST_TILING_H
#define INT4_CAST_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Int4CastTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Int4Cast, Int4CastTilingData)
}
#endif
