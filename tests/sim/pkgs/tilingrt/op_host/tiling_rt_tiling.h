#ifndef TILING_RT_TILING_H
#define TILING_RT_TILING_H
#include "register/tilingdata_base.h"
// Host headers a tiling header may pull in; kernel builds force-include this file, so these must
// also compile there (where DT_* are macros).
#include "tiling/tiling_api.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(InnerData)
  TILING_DATA_FIELD_DEF(uint32_t, p);
  TILING_DATA_FIELD_DEF(int64_t, q);
  TILING_DATA_FIELD_DEF(float, r);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(InnerDataOp, InnerData)

BEGIN_TILING_DATA_DEF(TilingDataRT)
  TILING_DATA_FIELD_DEF(uint8_t, a);
  TILING_DATA_FIELD_DEF(int64_t, b);
  TILING_DATA_FIELD_DEF(float, c);
  TILING_DATA_FIELD_DEF(uint16_t, d);
  TILING_DATA_FIELD_DEF_ARR(int32_t, 5, arr);
  TILING_DATA_FIELD_DEF_STRUCT(InnerData, inner);
  TILING_DATA_FIELD_DEF(int8_t, e);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(TilingRt, TilingDataRT)
}
#endif
