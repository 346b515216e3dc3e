#ifndef GMMODEL_TILING_H
#define GMMODEL_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GmModelTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, length);
  TILING_DATA_FIELD_DEF(uint32_t, rounded);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(GmModel, GmModelTilingData)
}
#endif
