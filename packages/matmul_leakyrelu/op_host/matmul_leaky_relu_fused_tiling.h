#ifndef MATMUL_LEAKY_RELU_FUSED_TILING_H
#define MATMUL_LEAKY_RELU_FUSED_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulLeakyReluFusedTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);   // the Matmul's split (MultiCoreMatmulTiling)
  TILING_DATA_FIELD_DEF(float, negativeSlope);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(MatmulLeakyReluFused, MatmulLeakyReluFusedTilingData)
}
#endif
