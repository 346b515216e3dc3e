#ifndef HL_MATMUL_Q_TILING_H
#define HL_MATMUL_Q_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(HlMatmulQTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(HlMatmulQ, HlMatmulQTilingData)
}
#endif
