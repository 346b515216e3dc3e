#ifndef FAULTY_TILING_H
#define FAULTY_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(FaultyTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, length);
  TILING_DATA_FIELD_DEF(uint32_t, bufferBytes);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Faulty, FaultyTilingData)
}
#endif
