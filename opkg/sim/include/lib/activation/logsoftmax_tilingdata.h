// CANN's lib/activation/logsoftmax_tilingdata.h: LogSoftMaxTiling (field names, types and order as
// CANN declares them), host class or kernel struct by build mode.
#ifndef OPKG_SIM_LIB_LOGSOFTMAX_TILINGDATA_H
#define OPKG_SIM_LIB_LOGSOFTMAX_TILINGDATA_H
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(LogSoftMaxTiling)
    TILING_DATA_FIELD_DEF(uint32_t, srcM);
    TILING_DATA_FIELD_DEF(uint32_t, srcK);
    TILING_DATA_FIELD_DEF(uint32_t, srcSize);
    TILING_DATA_FIELD_DEF(uint32_t, outMaxM);
    TILING_DATA_FIELD_DEF(uint32_t, outMaxK);
    TILING_DATA_FIELD_DEF(uint32_t, outMaxSize);
    TILING_DATA_FIELD_DEF(uint32_t, splitM);
    TILING_DATA_FIELD_DEF(uint32_t, splitK);
    TILING_DATA_FIELD_DEF(uint32_t, splitSize);
    TILING_DATA_FIELD_DEF(uint32_t, reduceM);
    TILING_DATA_FIELD_DEF(uint32_t, reduceK);
    TILING_DATA_FIELD_DEF(uint32_t, reduceSize);
    TILING_DATA_FIELD_DEF(uint32_t, rangeM);
    TILING_DATA_FIELD_DEF(uint32_t, tailM);
    TILING_DATA_FIELD_DEF(uint32_t, tailSplitSize);
    TILING_DATA_FIELD_DEF(uint32_t, tailReduceSize);
END_TILING_DATA_DEF;
}
#endif
