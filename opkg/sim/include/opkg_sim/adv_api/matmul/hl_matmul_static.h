// The constant (compile-time) Matmul tiling of CANN 8.1 (lib/matmul/matmul_config.h, tiling.h,
// constant_tiling.h): MatmulShapeParams, MatmulConfigMode, GetMMConfig and GetMatmulApiTiling's
// MatmulApiStaticTiling, which a kernel passes as Matmul's MM_CFG. The sim's Matmul computes the
// same values for every configuration (hl_matmul.h), so the static tiling carries the shapes the
// configuration names and leaves the schedule fields (depths, steps, double buffers) at -1, as
// CANN's does for what it cannot derive; the runtime TCubeTiling given to REGIST_MATMUL_OBJ stays
// the one the model reads.
#ifndef OPKG_SIM_HL_MATMUL_STATIC_H
#define OPKG_SIM_HL_MATMUL_STATIC_H

#include <cstdint>
#include <type_traits>

enum class MatmulConfigMode { CONFIG_NORM, CONFIG_MDL, CONFIG_SPECIALMDL, CONFIG_IBSHARE };

struct MatmulShapeParams {
    uint32_t singleCoreM;
    uint32_t singleCoreN;
    uint32_t singleCoreK;
    uint32_t basicM;
    uint32_t basicN;
    uint32_t basicK;
};

struct MatmulQuantParams {
    bool isPerTensor;
    bool hasAntiQuantOffset;
};

namespace opkg_sim {
namespace mm_static {
inline constexpr void apply(MatmulConfig& c, const MatmulShapeParams& s) {
    c.singleCoreM = s.singleCoreM;
    c.singleCoreN = s.singleCoreN;
    c.singleCoreK = s.singleCoreK;
    c.basicM = s.basicM;
    c.basicN = s.basicN;
    c.basicK = s.basicK;
}
// parameter groups the sim's model has no use for (quantisation, batch, function switches)
template <class T> inline constexpr void apply(MatmulConfig&, const T&) {}
}  // namespace mm_static
}  // namespace opkg_sim

template <MatmulConfigMode configMode, typename... ArgTypes>
constexpr MatmulConfig GetMMConfig(ArgTypes&&... args) {
    MatmulConfig c = configMode == MatmulConfigMode::CONFIG_NORM || configMode == MatmulConfigMode::CONFIG_IBSHARE
                         ? CFG_NORM : CFG_MDL;
    (opkg_sim::mm_static::apply(c, args), ...);
    return c;
}

struct MatmulApiStaticTiling {
    int32_t usedCoreNum = -1;
    int32_t M = -1;
    int32_t N = -1;
    int32_t Ka = -1;
    int32_t Kb = -1;
    int32_t singleCoreM = -1;
    int32_t singleCoreN = -1;
    int32_t singleCoreK = -1;
    int32_t baseM = -1;
    int32_t baseN = -1;
    int32_t baseK = -1;
    int32_t depthA1 = -1;
    int32_t depthB1 = -1;
    int32_t stepM = -1;
    int32_t stepN = -1;
    int32_t isBias = -1;
    int32_t transLength = -1;
    int32_t iterateOrder = -1;
    int32_t shareMode = -1;
    int32_t shareL1Size = -1;
    int32_t shareL0CSize = -1;
    int32_t shareUbSize = -1;
    int32_t stepKa = -1;
    int32_t stepKb = -1;
    int32_t depthAL1CacheUB = -1;
    int32_t depthBL1CacheUB = -1;
    int32_t dbL0A = -1;
    int32_t dbL0B = -1;
    int32_t dbL0C = -1;
    int32_t BatchNum = -1;
    MatmulConfig cfg = CFG_NORM;
};

namespace AscendC {
// The shapes of the configuration (singleCore* and basic*, when all set) in the static tiling.
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
constexpr MatmulApiStaticTiling GetMatmulApiTiling(const MatmulConfig& mmCFG, int32_t l1Size = 524288) {
    (void)l1Size;
    MatmulApiStaticTiling t;
    t.cfg = mmCFG;
    if (mmCFG.basicM != 0 && mmCFG.basicN != 0 && mmCFG.basicK != 0) {
        t.baseM = int32_t(mmCFG.basicM);
        t.baseN = int32_t(mmCFG.basicN);
        t.baseK = int32_t(mmCFG.basicK);
    }
    if (mmCFG.singleCoreM != 0 && mmCFG.singleCoreN != 0 && mmCFG.singleCoreK != 0) {
        t.singleCoreM = int32_t(mmCFG.singleCoreM);
        t.singleCoreN = int32_t(mmCFG.singleCoreN);
        t.singleCoreK = int32_t(mmCFG.singleCoreK);
    }
    return t;
}
}  // namespace AscendC

#endif
