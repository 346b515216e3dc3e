#ifndef IB_SYNC_TILING_H
#define IB_SYNC_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(IbSyncTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, blocks);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(IbSync, IbSyncTilingData)
}
#endif
