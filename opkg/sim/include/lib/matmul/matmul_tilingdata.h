// CANN's lib/matmul/matmul_tilingdata.h: TCubeTiling, the tiling struct of the high-level Matmul
// (field names and order as CANN declares them), host class or kernel struct by build mode. The
// field list is one macro: the host's plain ::TCubeTiling (kernel_tiling/kernel_tiling.h) has the
// same fields, all int32_t. The last is current asc-devkit's mxTypePara (8.1.RC1 named that slot
// `reserved`; ops-nn's quant matmul tiling sets it).
#ifndef OPKG_SIM_LIB_MATMUL_TILINGDATA_H
#define OPKG_SIM_LIB_MATMUL_TILINGDATA_H
#include "register/tilingdata_base.h"
#define OPKG_TCUBE_TILING_FIELDS(F) \
    F(usedCoreNum) \
    F(M) \
    F(N) \
    F(Ka) \
    F(Kb) \
    F(singleCoreM) \
    F(singleCoreN) \
    F(singleCoreK) \
    F(baseM) \
    F(baseN) \
    F(baseK) \
    F(depthA1) \
    F(depthB1) \
    F(stepM) \
    F(stepN) \
    F(isBias) \
    F(transLength) \
    F(iterateOrder) \
    F(shareMode) \
    F(shareL1Size) \
    F(shareL0CSize) \
    F(shareUbSize) \
    F(batchM) \
    F(batchN) \
    F(singleBatchM) \
    F(singleBatchN) \
    F(stepKa) \
    F(stepKb) \
    F(depthAL1CacheUB) \
    F(depthBL1CacheUB) \
    F(dbL0A) \
    F(dbL0B) \
    F(dbL0C) \
    F(ALayoutInfoB) \
    F(ALayoutInfoS) \
    F(ALayoutInfoN) \
    F(ALayoutInfoG) \
    F(ALayoutInfoD) \
    F(BLayoutInfoB) \
    F(BLayoutInfoS) \
    F(BLayoutInfoN) \
    F(BLayoutInfoG) \
    F(BLayoutInfoD) \
    F(CLayoutInfoB) \
    F(CLayoutInfoS1) \
    F(CLayoutInfoN) \
    F(CLayoutInfoG) \
    F(CLayoutInfoS2) \
    F(BatchNum) \
    F(mxTypePara)
#define OPKG_TCUBE_TILING_FIELD(name) TILING_DATA_FIELD_DEF(int32_t, name);
namespace optiling {
BEGIN_TILING_DATA_DEF(TCubeTiling)
    OPKG_TCUBE_TILING_FIELDS(OPKG_TCUBE_TILING_FIELD)
END_TILING_DATA_DEF;
}
#endif
