// CANN's lib/transpose/confusion_transpose_tilingdata.h: ConfusionTransposeTiling (param0..17, as
// CANN declares it; each scene reads its own fields from them), host class or kernel struct by
// build mode, and TransposeType (CANN's kernel_struct_transpose.h) for both sides.
#ifndef OPKG_SIM_LIB_CONFUSION_TRANSPOSE_TILINGDATA_H
#define OPKG_SIM_LIB_CONFUSION_TRANSPOSE_TILINGDATA_H
#include <cstdint>
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(ConfusionTransposeTiling)
    TILING_DATA_FIELD_DEF(uint32_t, param0);
    TILING_DATA_FIELD_DEF(uint32_t, param1);
    TILING_DATA_FIELD_DEF(uint32_t, param2);
    TILING_DATA_FIELD_DEF(uint32_t, param3);
    TILING_DATA_FIELD_DEF(uint32_t, param4);
    TILING_DATA_FIELD_DEF(uint32_t, param5);
    TILING_DATA_FIELD_DEF(uint32_t, param6);
    TILING_DATA_FIELD_DEF(uint32_t, param7);
    TILING_DATA_FIELD_DEF(uint32_t, param8);
    TILING_DATA_FIELD_DEF(uint32_t, param9);
    TILING_DATA_FIELD_DEF(uint32_t, param10);
    TILING_DATA_FIELD_DEF(uint32_t, param11);
    TILING_DATA_FIELD_DEF(uint32_t, param12);
    TILING_DATA_FIELD_DEF(uint32_t, param13);
    TILING_DATA_FIELD_DEF(uint32_t, param14);
    TILING_DATA_FIELD_DEF(uint32_t, param15);
    TILING_DATA_FIELD_DEF(uint32_t, param16);
    TILING_DATA_FIELD_DEF(uint32_t, param17);
END_TILING_DATA_DEF;
}
#ifndef OPKG_SIM_TRANSPOSE_TYPE_DEFINED
#define OPKG_SIM_TRANSPOSE_TYPE_DEFINED
namespace AscendC {
enum class TransposeType : uint8_t {
    TRANSPOSE_TYPE_NONE,
    TRANSPOSE_NZ2ND_0213,
    TRANSPOSE_NZ2NZ_0213,
    TRANSPOSE_NZ2NZ_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITHOUT_N,
    TRANSPOSE_NZ2NZ_012_WITHOUT_N,
    TRANSPOSE_ND2ND_ONLY,
    TRANSPOSE_ND_UB_GM,
    TRANSPOSE_GRAD_ND_UB_GM,
    TRANSPOSE_ND2ND_B16,
    TRANSPOSE_NCHW2NHWC,
    TRANSPOSE_NHWC2NCHW
};
}
#endif
#endif
