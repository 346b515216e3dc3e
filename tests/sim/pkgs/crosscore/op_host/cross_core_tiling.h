#ifndef CROSS_CORE_TILING_H
#define CROSS_CORE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CrossCoreTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, blocks);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(CrossCore, CrossCoreTilingData)
}
#endif
