#ifndef LNORM_TILING_H
#define LNORM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LnormTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, cols);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);   // the first `bigCores` cores take one more row
  TILING_DATA_FIELD_DEF(uint32_t, bigCores);
  TILING_DATA_FIELD_DEF(float, epsilon);
  TILING_DATA_FIELD_DEF(float, invCols);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Lnorm, LnormTilingData)
}
#endif
