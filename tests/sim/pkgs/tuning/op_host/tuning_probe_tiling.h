#ifndef TUNING_PROBE_TILING_H
#define TUNING_PROBE_TILING_H
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(TuningProbeTilingData)
  TILING_DATA_FIELD_DEF(int32_t, tiling);    // the tuning struct after a JSON round trip
  TILING_DATA_FIELD_DEF(int32_t, bankKey);   // the bank key after a text round trip
  TILING_DATA_FIELD_DEF(int32_t, fields);    // GetItemInfo's field count
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(TuningProbe, TuningProbeTilingData)
}
#endif
