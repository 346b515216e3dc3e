#ifndef HL_TMP_TILING_H
#define HL_TMP_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(HlTmpTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);   // the host's minimum less `shrink`
  TILING_DATA_FIELD_DEF_STRUCT(LayerNormTiling, ln);
  TILING_DATA_FIELD_DEF_STRUCT(RmsNormTiling, rms);
  TILING_DATA_FIELD_DEF_STRUCT(DeepNormTiling, dn);
  TILING_DATA_FIELD_DEF_STRUCT(BatchNormTiling, bn);
  TILING_DATA_FIELD_DEF_STRUCT(GroupNormTiling, gn);
  TILING_DATA_FIELD_DEF_STRUCT(LayerNormGradTiling, lg);
  TILING_DATA_FIELD_DEF_STRUCT(LayerNormGradBetaTiling, lgb);
  TILING_DATA_FIELD_DEF_STRUCT(PadTiling, pad);
  TILING_DATA_FIELD_DEF_STRUCT(UnPadTiling, unpad);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(HlTmp, HlTmpTilingData)
}
#endif
