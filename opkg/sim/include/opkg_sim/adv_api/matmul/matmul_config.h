// The Matmul configuration of asc-devkit (include/adv_api/matmul/matmul_config.h, tiling.h and
// impl/.../matmul_config_impl.h): the MatmulConfig template argument with every field, the
// parameter groups of GetMMConfig, and the constructors GetNormalConfig, GetMDLConfig,
// GetSpecialMDLConfig, GetBasicConfig, GetIBShareNormConfig. Field order, defaults and what each
// constructor sets follow asc-devkit, so kernels that read a field of their configuration in
// `if constexpr` (ops-nn's MatMulV3: MM_CFG.isNBatch, .bmmOutMode, ...) take the device's branch.
// The sim's Matmul model (hl_matmul.h) computes the same values under every configuration.
// Global names, as in CANN (kernels without `using namespace AscendC` name them unqualified).
#ifndef OPKG_SIM_ADV_API_MATMUL_CONFIG_H
#define OPKG_SIM_ADV_API_MATMUL_CONFIG_H

#include <cstdint>
#include <type_traits>

constexpr uint32_t SHARED_CO1_BUFFER_SIZE = 64 * 1024;

enum class CubeFormat { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR, ROW_MAJOR = ND, COLUMN_MAJOR = 8 };
enum class LayoutMode { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };
enum class BatchMode { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };
enum BatchOutMode { SINGLE_BATCH = 0, MULTI_BATCH, DYNAMIC };
#ifndef ASCC_STRUCT_ITERATEORDER
#define ASCC_STRUCT_ITERATEORDER
enum class IterateOrder { ORDER_M = 0, ORDER_N, UNDEF };
#endif
enum class ScheduleType { INNER_PRODUCT = 0, OUTER_PRODUCT };
enum IterateMode : uint8_t {
    ITERATE_MODE_NORMAL = 0b00000001, ITERATE_MODE_ALL = 0b00000010, ITERATE_MODE_BATCH = 0b00000100,
    ITERATE_MODE_N_BATCH = 0b00001000, ITERATE_MODE_DEFAULT = 0b11111111,
};
enum class DecompressionMode {
    DECOMP_NONE = 0, DECOMP_2bitTo8bit = 1, DECOMP_3bitTo8bit = 2, DECOMP_4bitTo8bit = 3,
    DECOMP_16bitTo64bit = 4, DECOMP_1bitTo8bit = 5, DECOMP_1bitTo4bit = 6, DECOMP_2bitTo4bit = 7,
    DECOMP_3bitTo4bit = 8,
};

struct MatmulConfig {
    bool doNorm;
    bool doBasicBlock;
    bool doMultiDataLoad;
    uint32_t basicM;
    uint32_t basicN;
    uint32_t basicK;
    bool intrinsicsCheck;
    bool isNBatch;
    bool enVecND2NZ;
    bool doSpecialBasicBlock;
    uint32_t doMTE2Preload;
    uint32_t singleCoreM;
    uint32_t singleCoreN;
    uint32_t singleCoreK;
    uint32_t stepM;
    uint32_t stepN;
    uint32_t baseMN;
    uint32_t singleCoreMN;
    bool enUnitFlag = true;
    bool isPerTensor;
    bool hasAntiQuantOffset;
    bool doIBShareNorm;
    bool doSpecialMDL;
    bool enableInit = true;
    BatchMode batchMode;
    bool enableEnd = true;
    bool enableGetTensorC = true;
    bool enableSetOrgShape = true;
    bool enableSetBias = true;
    bool enableSetTail = true;
    bool enableQuantVector = true;
    bool enableSetDefineData = true;
    uint8_t iterateMode = IterateMode::ITERATE_MODE_DEFAULT;
    bool enableReuse = true;
    bool enableUBReuse;
    bool enableL1CacheUB;
    bool intraBlockPartSum = false;
    IterateOrder iterateOrder{IterateOrder::UNDEF};
    ScheduleType scheduleType;
    bool enableDoubleCache;
    bool isBiasBatch = true;
    bool enableStaticPadZeros = false;
    bool isPartialOutput = false;
    bool enableMixDualMaster = false;
    bool isA2B2Shared = false;
    bool isEnableChannelSplit = false;
    bool enableKdimReorderLoad = false;
    bool isCO1Shared = false;
    uint32_t sharedCO1BufferSize = SHARED_CO1_BUFFER_SIZE;
    BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
    bool enableL1BankConflictOptimise = false;
    bool enableRelu = false;
    DecompressionMode decompMode = DecompressionMode::DECOMP_NONE;
};

enum class MatmulConfigMode { CONFIG_NORM, CONFIG_MDL, CONFIG_SPECIALMDL, CONFIG_IBSHARE };

struct MatmulShapeParams {
    uint32_t singleCoreM, singleCoreN, singleCoreK;
    uint32_t basicM, basicN, basicK;
};
struct MatmulQuantParams {
    bool isPerTensor;
    bool hasAntiQuantOffset;
};
struct MatmulBatchParams {
    bool isNBatch;
    BatchMode batchMode;
    bool isBiasBatch = true;
    BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
};
struct MatmulFuncParams {
    bool intrinsicsCheck;
    bool enVecND2NZ;
    bool enableDoubleCache;
    bool enableL1CacheUB;
    uint32_t doMTE2Preload;
    IterateOrder iterateOrder;
    ScheduleType scheduleType;
    bool enableReuse = true;
    bool enableUBReuse;
    bool isPartialOutput = false;
    bool isA2B2Shared = false;
    bool isEnableChannelSplit = false;
    bool enableKdimReorderLoad = false;
    bool enableL1BankConflictOptimise = false;
    bool enableRelu = false;
    DecompressionMode decompMode = DecompressionMode::DECOMP_NONE;
};
struct MatmulBiasParams {
    bool enableSetBias = true;
};

namespace opkg_sim::mm_cfg {
// What every constructor shares: the struct's defaults with UB reuse on (all five set it so
// unless told otherwise) and the K loop as the schedule.
constexpr MatmulConfig base() {
    MatmulConfig c{};
    c.enableUBReuse = true;
    c.scheduleType = ScheduleType::INNER_PRODUCT;
    c.iterateOrder = IterateOrder::UNDEF;
    return c;
}
}  // namespace opkg_sim::mm_cfg

constexpr MatmulConfig GetNormalConfig(bool intrinsicsLimit = false, bool batchLoop = false, bool isVecND2NZ = false,
                                       BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1, bool isMsgReuse = true,
                                       IterateOrder iterateOrder = IterateOrder::UNDEF,
                                       ScheduleType scheduleType = ScheduleType::INNER_PRODUCT, bool enUnitFlag = true,
                                       bool enableMixDualMaster = false,
                                       BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH) {
    MatmulConfig c = opkg_sim::mm_cfg::base();
    c.doNorm = true;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.enVecND2NZ = isVecND2NZ;
    c.batchMode = bmmMode;
    c.enableReuse = isMsgReuse;
    c.iterateOrder = iterateOrder;
    c.scheduleType = scheduleType;
    c.enUnitFlag = enUnitFlag;
    c.enableMixDualMaster = enableMixDualMaster;
    c.bmmOutMode = bmmOutMode;
    return c;
}

constexpr MatmulConfig GetMDLConfig(bool intrinsicsLimit = false, bool batchLoop = false, uint32_t doMTE2Preload = 0,
                                    bool isVecND2NZ = false, bool isPerTensor = false, bool hasAntiQuantOffset = false,
                                    bool enUnitFlag = false, bool isMsgReuse = true, bool enableUBReuse = true,
                                    bool enableL1CacheUB = false, bool enableMixDualMaster = false,
                                    bool enableKdimReorderLoad = false, bool enableL1BankConflictOptimise = false) {
    MatmulConfig c = opkg_sim::mm_cfg::base();
    c.doMultiDataLoad = true;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.doMTE2Preload = doMTE2Preload;
    c.enVecND2NZ = isVecND2NZ;
    c.isPerTensor = isPerTensor;
    c.hasAntiQuantOffset = hasAntiQuantOffset;
    c.enUnitFlag = enUnitFlag;
    c.batchMode = BatchMode::NONE;
    c.enableReuse = isMsgReuse;
    c.enableUBReuse = enableUBReuse;
    c.enableL1CacheUB = enableL1CacheUB;
    c.enableMixDualMaster = enableMixDualMaster;
    c.enableKdimReorderLoad = enableKdimReorderLoad;
    c.enableL1BankConflictOptimise = enableL1BankConflictOptimise;
    return c;
}

constexpr MatmulConfig GetSpecialMDLConfig(bool intrinsicsLimit = false, bool batchLoop = false,
                                           uint32_t doMTE2Preload = 0, bool isVecND2NZ = false,
                                           bool isPerTensor = false, bool hasAntiQuantOffset = false) {
    MatmulConfig c = opkg_sim::mm_cfg::base();
    c.doSpecialMDL = true;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.doMTE2Preload = doMTE2Preload;
    c.enVecND2NZ = isVecND2NZ;
    c.isPerTensor = isPerTensor;
    c.hasAntiQuantOffset = hasAntiQuantOffset;
    c.enUnitFlag = false;
    c.batchMode = BatchMode::NONE;
    return c;
}

constexpr MatmulConfig GetBasicConfig(uint32_t basicM, uint32_t basicN, uint32_t basicK, bool intrinsicsLimit = false,
                                      bool batchLoop = false, BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
    MatmulConfig c = opkg_sim::mm_cfg::base();
    c.doBasicBlock = true;
    c.basicM = basicM;
    c.basicN = basicN;
    c.basicK = basicK;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.enUnitFlag = false;
    c.batchMode = bmmMode;
    return c;
}

constexpr MatmulConfig GetIBShareNormConfig(bool intrinsicsLimit = false, bool batchLoop = false,
                                            bool isVecND2NZ = false,
                                            BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                            bool isDoubleCache = false, bool enUnitFlag = true) {
    MatmulConfig c = opkg_sim::mm_cfg::base();
    c.doIBShareNorm = true;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.enVecND2NZ = isVecND2NZ;
    c.batchMode = bmmMode;
    c.enableDoubleCache = isDoubleCache;
    c.enUnitFlag = enUnitFlag;
    return c;
}

constexpr MatmulConfig CFG_NORM = GetNormalConfig();
constexpr MatmulConfig CFG_MDL = GetMDLConfig();
constexpr MatmulConfig MM_CFG_BB = GetBasicConfig(128, 128, 128);
constexpr MatmulConfig CFG_IBSHARE_NORM = GetIBShareNormConfig();

namespace opkg_sim::mm_cfg {
// GetMMConfig's parameter groups, each overriding its own fields
constexpr void apply(MatmulConfig&) {}
template <class T, class... Rest>
constexpr void apply(MatmulConfig& c, const T& p, const Rest&... rest) {
    if constexpr (std::is_same_v<T, MatmulShapeParams>) {
        c.singleCoreM = p.singleCoreM; c.singleCoreN = p.singleCoreN; c.singleCoreK = p.singleCoreK;
        c.basicM = p.basicM; c.basicN = p.basicN; c.basicK = p.basicK;
    } else if constexpr (std::is_same_v<T, MatmulQuantParams>) {
        c.isPerTensor = p.isPerTensor; c.hasAntiQuantOffset = p.hasAntiQuantOffset;
    } else if constexpr (std::is_same_v<T, MatmulBatchParams>) {
        c.isNBatch = p.isNBatch; c.batchMode = p.batchMode; c.isBiasBatch = p.isBiasBatch;
        c.bmmOutMode = p.bmmOutMode;
    } else if constexpr (std::is_same_v<T, MatmulFuncParams>) {
        c.intrinsicsCheck = p.intrinsicsCheck; c.enVecND2NZ = p.enVecND2NZ;
        c.enableDoubleCache = p.enableDoubleCache; c.enableL1CacheUB = p.enableL1CacheUB;
        c.doMTE2Preload = p.doMTE2Preload; c.iterateOrder = p.iterateOrder; c.scheduleType = p.scheduleType;
        c.enableReuse = p.enableReuse; c.enableUBReuse = p.enableUBReuse; c.isPartialOutput = p.isPartialOutput;
        c.isA2B2Shared = p.isA2B2Shared; c.isEnableChannelSplit = p.isEnableChannelSplit;
        c.enableKdimReorderLoad = p.enableKdimReorderLoad;
        c.enableL1BankConflictOptimise = p.enableL1BankConflictOptimise; c.enableRelu = p.enableRelu;
        c.decompMode = p.decompMode;
    } else if constexpr (std::is_same_v<T, MatmulBiasParams>) {
        c.enableSetBias = p.enableSetBias;
    }
    apply(c, rest...);
}
}  // namespace opkg_sim::mm_cfg

// A configuration from one of the four templates with the given parameter groups applied.
template <MatmulConfigMode configMode, class... ArgTypes>
constexpr MatmulConfig GetMMConfig(ArgTypes&&... args) {
    MatmulConfig c = configMode == MatmulConfigMode::CONFIG_MDL ? CFG_MDL
                     : configMode == MatmulConfigMode::CONFIG_SPECIALMDL ? GetSpecialMDLConfig()
                     : configMode == MatmulConfigMode::CONFIG_IBSHARE ? CFG_IBSHARE_NORM : CFG_NORM;
    opkg_sim::mm_cfg::apply(c, std::decay_t<ArgTypes>(args)...);
    return c;
}

// asc-devkit's constant tiling (include/adv_api/matmul/tiling.h, constant_tiling.h): a Matmul
// configured by a MatmulApiStaticTiling instead of a MatmulConfig. GetMatmulApiTiling gives its
// dynamic form (single-core shape 0: the tiling comes at run time, base blocks from the
// configuration's basic sizes, L0A/L0B double-buffered when two blocks fit, as asc-devkit's
// GetL0ADb/GetL0BDb decide). The fully static form's L1 factors are not modelled: asking for
// one is a compile error at its call.
struct MatmulApiStaticTiling {
    int32_t usedCoreNum = -1, M = -1, N = -1, Ka = -1, Kb = -1;
    int32_t singleCoreM = -1, singleCoreN = -1, singleCoreK = -1;
    int32_t baseM = -1, baseN = -1, baseK = -1, depthA1 = -1, depthB1 = -1, stepM = -1, stepN = -1;
    int32_t isBias = -1, transLength = -1, iterateOrder = -1;
    int32_t shareMode = -1, shareL1Size = -1, shareL0CSize = -1, shareUbSize = -1;
    int32_t stepKa = -1, stepKb = -1, depthAL1CacheUB = -1, depthBL1CacheUB = -1;
    int32_t dbL0A = -1, dbL0B = -1, dbL0C = -1;
    int32_t ALayoutInfoB = -1, ALayoutInfoS = -1, ALayoutInfoN = -1, ALayoutInfoG = -1, ALayoutInfoD = -1;
    int32_t BLayoutInfoB = -1, BLayoutInfoS = -1, BLayoutInfoN = -1, BLayoutInfoG = -1, BLayoutInfoD = -1;
    int32_t CLayoutInfoB = -1, CLayoutInfoS1 = -1, CLayoutInfoN = -1, CLayoutInfoG = -1, CLayoutInfoS2 = -1;
    int32_t BatchNum = -1, mxTypePara = -1;
    MatmulConfig cfg = CFG_NORM;
};

// The MatmulConfig a Matmul's MM_CFG argument stands for, whichever of the two it is (asc-devkit's
// matmul_config_utils.h; ops-nn's BatchMatMulV3 tests `ToMatmulConfig(MM_CFG).bmmOutMode`).
constexpr MatmulConfig ToMatmulConfig(const MatmulConfig& cfg) { return cfg; }
constexpr MatmulConfig ToMatmulConfig(const MatmulApiStaticTiling& cfg) { return cfg.cfg; }

namespace opkg_sim::mm_cfg {
constexpr uint32_t L0AB_BYTES = 64 * 1024;   // L0A and L0B of the A2/A3 AI core
template <class T>
constexpr int32_t l0_db(uint32_t rows, uint32_t k) {
    return uint64_t(rows) * k * sizeof(T) > L0AB_BYTES / 2 ? 1 : 2;
}
}  // namespace opkg_sim::mm_cfg

namespace AscendC {   // as asc-devkit's constant_tiling.h
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
constexpr MatmulApiStaticTiling GetMatmulApiTiling(const MatmulConfig& mmCFG, int32_t = 0) {
    MatmulApiStaticTiling tiling;
    tiling.cfg = mmCFG;
    // a static single-core shape is carried as given (cann-ops' matmul_api_constant); the
    // schedule fields CANN would derive from it stay -1: the sim's model reads the runtime tiling
    if (mmCFG.singleCoreM != 0 && mmCFG.singleCoreN != 0 && mmCFG.singleCoreK != 0) {
        tiling.singleCoreM = int32_t(mmCFG.singleCoreM);
        tiling.singleCoreN = int32_t(mmCFG.singleCoreN);
        tiling.singleCoreK = int32_t(mmCFG.singleCoreK);
    }
    if (mmCFG.basicM != 0 && mmCFG.basicN != 0 && mmCFG.basicK != 0) {
        tiling.baseM = mmCFG.basicM;
        tiling.baseN = mmCFG.basicN;
        tiling.baseK = mmCFG.basicK;
        tiling.dbL0A = opkg_sim::mm_cfg::l0_db<typename A_TYPE::T>(mmCFG.basicM, mmCFG.basicK);
        tiling.dbL0B = opkg_sim::mm_cfg::l0_db<typename B_TYPE::T>(mmCFG.basicN, mmCFG.basicK);
        tiling.isBias = mmCFG.enableSetBias;
    }
    return tiling;
}
}  // namespace AscendC

#endif
