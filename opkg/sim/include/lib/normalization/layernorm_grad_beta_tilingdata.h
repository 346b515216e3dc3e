// CANN's lib/normalization/layernorm_grad_beta_tilingdata.h: its tiling struct (field names, types and order as
// CANN declares them), host class or kernel struct by build mode.
#ifndef OPKG_SIM_LIB_LAYERNORM_GRAD_BETA_TILINGDATA_H
#define OPKG_SIM_LIB_LAYERNORM_GRAD_BETA_TILINGDATA_H
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(LayerNormGradBetaTiling)
    TILING_DATA_FIELD_DEF(uint32_t, stackBufferSize);
    TILING_DATA_FIELD_DEF(uint32_t, bLength);
    TILING_DATA_FIELD_DEF(uint32_t, sLength);
    TILING_DATA_FIELD_DEF(uint32_t, hLength);
    TILING_DATA_FIELD_DEF(uint32_t, originalHLength);
    TILING_DATA_FIELD_DEF(uint32_t, bshLength);
    TILING_DATA_FIELD_DEF(uint32_t, bsLength);
    TILING_DATA_FIELD_DEF(uint32_t, oneCalSize);
    TILING_DATA_FIELD_DEF(uint32_t, numberOfTmpBuf);
    TILING_DATA_FIELD_DEF(uint32_t, loopRound);
    TILING_DATA_FIELD_DEF(uint32_t, inputTailSize);
    TILING_DATA_FIELD_DEF(uint32_t, inputTailPos);
    TILING_DATA_FIELD_DEF(uint32_t, bsTailSize);
    TILING_DATA_FIELD_DEF(uint32_t, bshCurLength);
    TILING_DATA_FIELD_DEF(uint32_t, bsCurLength);
    TILING_DATA_FIELD_DEF(uint32_t, gammaTempTensorPos);
    TILING_DATA_FIELD_DEF(uint32_t, betaTempTensorPos);
    TILING_DATA_FIELD_DEF(uint32_t, inputDyTmpTensorPos);
    TILING_DATA_FIELD_DEF(uint32_t, resForGammaTmpTensorPos);
    TILING_DATA_FIELD_DEF(uint32_t, reserved);
END_TILING_DATA_DEF;
}
#endif
