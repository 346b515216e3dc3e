#ifndef MM_API_TILING_H
#define MM_API_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MmApiTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
  TILING_DATA_FIELD_DEF(int32_t, batch);
  // what the host's getters returned (tiling-only keys; see op_host/mm_api.cpp)
  TILING_DATA_FIELD_DEF_ARR(int32_t, 16, got);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(MmApi, MmApiTilingData)
}
#endif
