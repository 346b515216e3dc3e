// CANN's lib/normalization/layernorm_grad_tilingdata.h: its tiling struct (field names, types and order as
// CANN declares them), host class or kernel struct by build mode.
#ifndef OPKG_SIM_LIB_LAYERNORM_GRAD_TILINGDATA_H
#define OPKG_SIM_LIB_LAYERNORM_GRAD_TILINGDATA_H
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(LayerNormGradTiling)
    TILING_DATA_FIELD_DEF(uint32_t, stackBufferSize);
    TILING_DATA_FIELD_DEF(uint32_t, bLength);
    TILING_DATA_FIELD_DEF(uint32_t, sLength);
    TILING_DATA_FIELD_DEF(uint32_t, hLength);
    TILING_DATA_FIELD_DEF(uint32_t, originalHLength);
    TILING_DATA_FIELD_DEF(uint32_t, oneCalSize);
    TILING_DATA_FIELD_DEF(uint32_t, nohCalSize);
    TILING_DATA_FIELD_DEF(uint32_t, loopNum);
    TILING_DATA_FIELD_DEF(uint32_t, tailSize);
    TILING_DATA_FIELD_DEF(uint32_t, nohTailSize);
    TILING_DATA_FIELD_DEF(uint32_t, tmpTensorBSHPos);
    TILING_DATA_FIELD_DEF(uint32_t, tmpTensorBSHSize);
    TILING_DATA_FIELD_DEF(uint32_t, pdVarTensorPos);
    TILING_DATA_FIELD_DEF(uint32_t, pdVarTensorSize);
    TILING_DATA_FIELD_DEF(uint32_t, pdMeanTensorPos);
    TILING_DATA_FIELD_DEF(uint32_t, pdMeanTensorSize);
    TILING_DATA_FIELD_DEF(uint32_t, x1TensorPos);
    TILING_DATA_FIELD_DEF(uint32_t, x1TensorSize);
    TILING_DATA_FIELD_DEF(uint32_t, x2TensorPos);
    TILING_DATA_FIELD_DEF(uint32_t, x2TensorSize);
    TILING_DATA_FIELD_DEF(uint32_t, x3TensorPos);
    TILING_DATA_FIELD_DEF(uint32_t, x3TensorSize);
    TILING_DATA_FIELD_DEF(uint32_t, tmpTensorPos);
    TILING_DATA_FIELD_DEF(uint32_t, tmpTensorSize);
    TILING_DATA_FIELD_DEF(uint32_t, tmpTensor1Pos);
    TILING_DATA_FIELD_DEF(uint32_t, tmpTensor1Size);
    TILING_DATA_FIELD_DEF(uint32_t, tmpTensor2Pos);
    TILING_DATA_FIELD_DEF(uint32_t, tmpTensor2Size);
    TILING_DATA_FIELD_DEF(uint32_t, lastDimValueBack);
    TILING_DATA_FIELD_DEF(uint32_t, lastDimValueBackMulTwo);
END_TILING_DATA_DEF;
}
#endif
