#ifndef MATMUL_BASIC_CUSTOM_TILING_H
#define MATMUL_BASIC_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulBasicCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, m);
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF(uint32_t, baseM);     // output tile rows (multiple of 16)
  TILING_DATA_FIELD_DEF(uint32_t, baseN);     // output tile columns (multiple of 16)
  TILING_DATA_FIELD_DEF(uint32_t, baseK);     // K per Mmad step (multiple of 16)
  TILING_DATA_FIELD_DEF(uint32_t, tilesM);
  TILING_DATA_FIELD_DEF(uint32_t, tilesN);
  TILING_DATA_FIELD_DEF(uint32_t, hasBias);   // 1: the optional bias [N] is given
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(MatmulBasicCustom, MatmulBasicCustomTilingData)
}
#endif
