#ifndef MULTI_CORE_TILING_H
#define MULTI_CORE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MultiCoreTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, blocks);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(MultiCore, MultiCoreTilingData)
}
#endif
