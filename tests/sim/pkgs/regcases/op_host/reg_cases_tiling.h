#ifndef REG_CASES_TILING_H
#define REG_CASES_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RegCasesTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, words);   // 32-bit words of x and z
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(RegCases, RegCasesTilingData)
}
#endif
