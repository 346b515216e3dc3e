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

// The constant tiling of MatMulV3's deterministic split-K kernel (mat_mul_deterministic_splitk_kernel.h:
// MatmulShapeParams {0, 0, 0, 128, 128, 256 / sizeof(A)} under CONFIG_MDL), and the object declared
// with a policy as its seventh argument.
using AT = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using CT = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
constexpr MatmulShapeParams shapeParams = {0, 0, 0, 128, 128, 128};
constexpr MatmulConfig kStaticCfg = GetMMConfig<MatmulConfigMode::CONFIG_MDL>(shapeParams);
constexpr static MatmulApiStaticTiling kStatic = AscendC::GetMatmulApiTiling<AT, AT, CT, CT>(kStaticCfg);
// 128 x 128 halves are 32 KB: two fit the 64 KB L0A, so L0A is double-buffered (asc-devkit's GetL0ADb)
static_assert(kStatic.baseM == 128 && kStatic.baseK == 128 && kStatic.dbL0A == 2 && kStatic.M == -1 &&
              kStatic.cfg.doMultiDataLoad, "GetMatmulApiTiling, dynamic shape");
constexpr MatmulConfig kBig = GetMMConfig<MatmulConfigMode::CONFIG_MDL>(MatmulShapeParams{0, 0, 0, 256, 128, 128});
static_assert(AscendC::GetMatmulApiTiling<AT, AT, CT, CT>(kBig).dbL0A == 1, "a 64 KB block: no double buffer");
using Policied = AscendC::MatmulImpl<AT, AT, CT, CT, kStatic, AscendC::MatmulCallBackFunc<nullptr, nullptr, nullptr>,
                                     AscendC::Impl::Detail::NBuffer33MatmulPolicy>;
static_assert(std::is_same_v<Policied::AType, AT>, "MatmulImpl with a policy is the Matmul object");
// batch_matmul_utils.h's CeilDiv/CeilAlign, which ops-nn's BatchMatMulV3 block calls unqualified
static_assert(std::is_same_v<decltype(AscendC::CeilDiv(uint16_t(7), uint16_t(2))), uint16_t> &&
              std::is_same_v<decltype(AscendC::CeilAlign(uint16_t(7), uint16_t(2))), uint16_t>, "16-bit");
// mat_mul_nd2nz_util.h's constant transposition parameters: a literal type, as the devkit's
constexpr AscendC::TransDataTo5HDParams kParaOne(false, false, 1, 0, 0);
static_assert(kParaOne.repeatTimes == 1 && !kParaOne.dstHighHalf && kParaOne.srcRepStride == 0, "constexpr");
