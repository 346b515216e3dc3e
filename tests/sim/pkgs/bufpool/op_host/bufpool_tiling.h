#ifndef BUFPOOL_TILING_H
#define BUFPOOL_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BufPoolTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, length);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(BufPool, BufPoolTilingData)
}
#endif
