// Written for opkg's tests: the Matmul configurations ops-nn's MatMulV3 kernel declares
// (hicann/ops-nn matmul/mat_mul_v3/op_kernel/mat_mul_v3_common.h: GetMDLConfig with a preload
// direction, GetMMConfig<CONFIG_NORM> with MatmulBatchParams, GetNormalConfig with ORDER_M and
// MULTI_BATCH output), checked field by field against asc-devkit's constructors
// (include/adv_api/matmul/tiling.h). Compiled as a kernel translation unit.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

constexpr MatmulBatchParams batchBias{false, BatchMode::BATCH_LESS_THAN_L1, true, BatchOutMode::DYNAMIC};
constexpr MatmulConfig kBatchBias = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(batchBias);
static_assert(kBatchBias.doNorm && !kBatchBias.doMultiDataLoad && kBatchBias.isBiasBatch &&
              kBatchBias.bmmOutMode == BatchOutMode::DYNAMIC && kBatchBias.enUnitFlag, "GetMMConfig");
constexpr MatmulConfig kPreloadMK = GetMDLConfig(false, false, 2);
static_assert(!kPreloadMK.doNorm && kPreloadMK.doMultiDataLoad && kPreloadMK.doMTE2Preload == 2 &&
              !kPreloadMK.enUnitFlag && kPreloadMK.batchMode == BatchMode::NONE &&
              kPreloadMK.enableUBReuse && kPreloadMK.iterateOrder == IterateOrder::UNDEF, "GetMDLConfig");
constexpr MatmulConfig kMultiOut = GetNormalConfig(false, false, false, BatchMode::BATCH_LESS_THAN_L1, true,
                                                   IterateOrder::ORDER_M, ScheduleType::INNER_PRODUCT, true,
                                                   false, BatchOutMode::MULTI_BATCH);
static_assert(kMultiOut.iterateOrder == IterateOrder::ORDER_M && kMultiOut.bmmOutMode == MULTI_BATCH &&
              kMultiOut.batchMode == BatchMode::BATCH_LESS_THAN_L1, "GetNormalConfig");
constexpr MatmulFuncParams func{false, false, false, false, 0, IterateOrder::ORDER_N, ScheduleType::OUTER_PRODUCT};
constexpr MatmulConfig kMdlFunc = GetMMConfig<MatmulConfigMode::CONFIG_MDL>(func, MatmulBiasParams{false});
static_assert(kMdlFunc.doMultiDataLoad && kMdlFunc.scheduleType == ScheduleType::OUTER_PRODUCT &&
              kMdlFunc.iterateOrder == IterateOrder::ORDER_N && !kMdlFunc.enableSetBias && kMdlFunc.enableReuse,
              "GetMMConfig with two groups");
static_assert(MM_CFG_BB.doBasicBlock && MM_CFG_BB.basicK == 128 && CFG_IBSHARE_NORM.doIBShareNorm &&
              GetSpecialMDLConfig().doSpecialMDL && CFG_NORM.sharedCO1BufferSize == 64 * 1024, "constants");
