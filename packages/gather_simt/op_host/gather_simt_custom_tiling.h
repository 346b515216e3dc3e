#ifndef GATHER_SIMT_CUSTOM_TILING_H
#define GATHER_SIMT_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GatherSimtCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);   // elements of indices (and y)
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(GatherSimtCustom, GatherSimtCustomTilingData)
}
#endif
