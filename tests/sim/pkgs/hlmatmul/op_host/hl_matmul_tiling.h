#ifndef HL_MATMUL_TILING_H
#define HL_MATMUL_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(HlMatmulTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
  TILING_DATA_FIELD_DEF(int32_t, transB);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(HlMatmul, HlMatmulTilingData)
}
#endif
