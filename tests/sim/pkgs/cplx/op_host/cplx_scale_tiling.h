#ifndef CPLX_SCALE_TILING_H
#define CPLX_SCALE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CplxScaleTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, count);   // complex elements
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(CplxScale, CplxScaleTilingData)
}
#endif
