#ifndef SIMT_KERNELS_TILING_H
#define SIMT_KERNELS_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SimtKernelsTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);   // elements of idx
  TILING_DATA_FIELD_DEF(uint32_t, m);   // elements of x
  TILING_DATA_FIELD_DEF(uint32_t, ylen);   // elements of y
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(SimtKernels, SimtKernelsTilingData)
}
#endif
