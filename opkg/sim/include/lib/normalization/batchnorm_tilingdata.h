// CANN's lib/normalization/batchnorm_tilingdata.h: the tiling structs of batchnorm (field names, types and
// order as CANN declares them), host class or kernel struct by build mode.
#ifndef OPKG_SIM_LIB_BATCHNORM_TILINGDATA_H
#define OPKG_SIM_LIB_BATCHNORM_TILINGDATA_H
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(BatchNormTiling)
    TILING_DATA_FIELD_DEF(uint32_t, originalBLength);
    TILING_DATA_FIELD_DEF(uint32_t, meanVarSize);
    TILING_DATA_FIELD_DEF(uint32_t, meanTmpTensorPos);
    TILING_DATA_FIELD_DEF(uint32_t, varianceTmpTensorPos);
    TILING_DATA_FIELD_DEF(uint32_t, tmpBufSize);
    TILING_DATA_FIELD_DEF(uint32_t, oneTmpSize);
    TILING_DATA_FIELD_DEF(uint32_t, firstTmpStartPos);
    TILING_DATA_FIELD_DEF(uint32_t, secondTmpStartPos);
    TILING_DATA_FIELD_DEF(uint32_t, thirdTmpStartPos);
    TILING_DATA_FIELD_DEF(uint32_t, loopRound);
    TILING_DATA_FIELD_DEF(uint32_t, inputTailSize);
    TILING_DATA_FIELD_DEF(uint32_t, inputTailPos);
    TILING_DATA_FIELD_DEF(uint32_t, meanVarTailSize);
    TILING_DATA_FIELD_DEF(uint32_t, meanVarTailPos);
    TILING_DATA_FIELD_DEF(uint32_t, bshCurLength);
    TILING_DATA_FIELD_DEF(uint32_t, shCurLength);
    TILING_DATA_FIELD_DEF(float, firstDimValueBack);
    TILING_DATA_FIELD_DEF(uint32_t, castHalfRepStride);
    TILING_DATA_FIELD_DEF(uint32_t, shCurLengthBlockNum);
    TILING_DATA_FIELD_DEF(uint32_t, castHalfOutRepStride);
END_TILING_DATA_DEF;
}
#endif
