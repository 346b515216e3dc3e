// CANN's lib/normalization/rmsnorm_tilingdata.h: the tiling structs of rmsnorm (field names, types and
// order as CANN declares them), host class or kernel struct by build mode.
#ifndef OPKG_SIM_LIB_RMSNORM_TILINGDATA_H
#define OPKG_SIM_LIB_RMSNORM_TILINGDATA_H
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(RmsNormTiling)
    TILING_DATA_FIELD_DEF(uint32_t, bLength);
    TILING_DATA_FIELD_DEF(uint32_t, sLength);
    TILING_DATA_FIELD_DEF(uint32_t, hLength);
    TILING_DATA_FIELD_DEF(uint32_t, originalHLength);
    TILING_DATA_FIELD_DEF(float, reciprocalOfHLength);
    TILING_DATA_FIELD_DEF(uint32_t, mainBshLength);
    TILING_DATA_FIELD_DEF(uint32_t, mainBsLength);
    TILING_DATA_FIELD_DEF(uint32_t, mainBsLengthAlign);
    TILING_DATA_FIELD_DEF(uint32_t, loopRound);
    TILING_DATA_FIELD_DEF(uint32_t, inputTailPos);
    TILING_DATA_FIELD_DEF(uint32_t, tailBshLength);
    TILING_DATA_FIELD_DEF(uint32_t, tailBsLength);
END_TILING_DATA_DEF;
}
#endif
