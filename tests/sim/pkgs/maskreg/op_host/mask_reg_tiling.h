#ifndef MASK_REG_TILING_H
#define MASK_REG_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MaskRegTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, padded);   // elements moved by DataCopy
  TILING_DATA_FIELD_DEF(uint32_t, count);    // calCount
  TILING_DATA_FIELD_DEF(int32_t, tmpBytes);  // sharedTmpBuffer bytes; -1: the form without one
  TILING_DATA_FIELD_DEF(float, scalar);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(MaskReg, MaskRegTilingData)
}
#endif
