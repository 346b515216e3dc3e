#ifndef SORT_API_TILING_H
#define SORT_API_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SortApiTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);        // scores
  TILING_DATA_FIELD_DEF(uint32_t, tmpElems); // elements of the full sort's tmpLocal
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(SortApi, SortApiTilingData)
}
#endif
