#ifndef HL_TOPK_TILING_H
#define HL_TOPK_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(HlTopkTilingData)
  TILING_DATA_FIELD_DEF(int32_t, k);
  TILING_DATA_FIELD_DEF(int32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, largest);
  TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);   // the host's minimum less `shrink`
  TILING_DATA_FIELD_DEF_STRUCT(TopkTiling, topk);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(HlTopk, HlTopkTilingData)
}
#endif
