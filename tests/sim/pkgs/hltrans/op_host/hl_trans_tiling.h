#ifndef HL_TRANS_TILING_H
#define HL_TRANS_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(HlTransTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, count);      // elements moved
  TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);   // the host's minimum less `shrink` (at least 32)
  TILING_DATA_FIELD_DEF_STRUCT(ConfusionTransposeTiling, ct);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(HlTrans, HlTransTilingData)
}
#endif
