// The Ascend 950's algorithm configurations: which algorithm (and so which precision and
// subnormal handling) an API uses. Names and defaults as asc-devkit declares them
// (include/basic_api/reg_compute/kernel_reg_compute_utils.h for the basic and register APIs,
// include/adv_api/math/*_utils.h and impl/adv_api/detail/math/power/power_common_utils.h for the
// high-level math API). What each choice means on the sim: ftz() and the static_asserts of the
// APIs that take them (docs/api.md, "The Ascend 950's math API with algorithm configurations").
#ifndef OPKG_SIM_ALGO_CONFIG_H
#define OPKG_SIM_ALGO_CONFIG_H

#include <cstdint>

// Configurations as template arguments. The devkit's APIs take a configuration as a reference
// template parameter (`template <..., const ErfConfig& config = defaultErfConfig>`). g++ 12 crashes
// (internal compiler error: Segmentation fault, in tsubst) when such an argument names a static of
// a template: a `static constexpr` local of a function template or of a member function of a class
// template (ge_glu_v2's `Erf<float, false, config>`), a `constexpr static` member of a class
// template (dynamic_quant's `Cast<float, T, castTrait0>`), passed to a function template. So the
// configured APIs of the sim take the configuration's code instead, an integer NTTP: a
// configuration converts to its code implicitly (a converted constant expression may apply a
// constexpr conversion function), a reference parameter of the kernel's own converts the same way,
// and the API decodes the value it names (`Config::from_code`). Eight bits a field, signed, so an
// enumerator of -1 (CastTrait's UNKNOWN) round-trips; `uint32_t` fields take the upper half.
namespace opkg_sim {
using ConfigCode = uint64_t;
template <class E>
constexpr ConfigCode code_field(E e, unsigned k) { return ConfigCode(uint8_t(int64_t(e))) << (8 * k); }
template <class E>
constexpr E field_of(ConfigCode c, unsigned k) { return E(int8_t(uint8_t(c >> (8 * k)))); }
}  // namespace opkg_sim

// A one-field configuration STRUCT { ENUM algo } with its code.
#define OPKG_ALGO_CONFIG(STRUCT, ENUM, DEFAULT)                                                     \
    struct STRUCT {                                                                                 \
        ENUM algo = ENUM::DEFAULT;                                                                  \
        constexpr operator opkg_sim::ConfigCode() const { return opkg_sim::code_field(algo, 0); }  \
        static constexpr STRUCT from_code(opkg_sim::ConfigCode c) { return {opkg_sim::field_of<ENUM>(c, 0)}; } \
    }

namespace AscendC {

// Basic and register APIs.
enum class ExpAlgo { INTRINSIC = 0, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE };
OPKG_ALGO_CONFIG(ExpConfig, ExpAlgo, INTRINSIC);
constexpr ExpConfig DEFAULT_EXP_CONFIG = {ExpAlgo::INTRINSIC};
enum class LnAlgo { INTRINSIC = 0, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE };
OPKG_ALGO_CONFIG(LnConfig, LnAlgo, INTRINSIC);
constexpr LnConfig DEFAULT_LN_CONFIG = {LnAlgo::INTRINSIC};
enum class LogAlgo { INTRINSIC = 0, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE };
OPKG_ALGO_CONFIG(LogConfig, LogAlgo, INTRINSIC);
constexpr LogConfig DEFAULT_Log_CONFIG = {LogAlgo::INTRINSIC};
enum class Log2Algo { INTRINSIC = 0, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE };
OPKG_ALGO_CONFIG(Log2Config, Log2Algo, INTRINSIC);
constexpr Log2Config DEFAULT_Log2_CONFIG = {Log2Algo::INTRINSIC};
enum class Log10Algo { INTRINSIC = 0, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE };
OPKG_ALGO_CONFIG(Log10Config, Log10Algo, INTRINSIC);
constexpr Log10Config DEFAULT_Log10_CONFIG = {Log10Algo::INTRINSIC};
enum class ReciprocalAlgo { INTRINSIC = 0, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE };
OPKG_ALGO_CONFIG(ReciprocalConfig, ReciprocalAlgo, INTRINSIC);
constexpr ReciprocalConfig DEFAULT_RECIPROCAL_CONFIG = {ReciprocalAlgo::INTRINSIC};
enum class DivAlgo {
    INTRINSIC = 0,
    DIFF_COMPENSATION,
    PRECISION_1ULP_FTZ_TRUE,
    PRECISION_0ULP_FTZ_TRUE,
    PRECISION_0ULP_FTZ_FALSE,
    PRECISION_1ULP_FTZ_FALSE
};
OPKG_ALGO_CONFIG(DivConfig, DivAlgo, INTRINSIC);
constexpr DivConfig DEFAULT_DIV_CONFIG = {DivAlgo::INTRINSIC};
enum class SqrtAlgo { INTRINSIC = 0, FAST_INVERSE, PRECISION_1ULP_FTZ_TRUE, PRECISION_0ULP_FTZ_FALSE, PRECISION_1ULP_FTZ_FALSE };
OPKG_ALGO_CONFIG(SqrtConfig, SqrtAlgo, INTRINSIC);
constexpr SqrtConfig DEFAULT_SQRT_CONFIG = {SqrtAlgo::INTRINSIC};
enum class RsqrtAlgo { INTRINSIC = 0, FAST_INVERSE, PRECISION_1ULP_FTZ_TRUE, PRECISION_0ULP_FTZ_FALSE, PRECISION_1ULP_FTZ_FALSE };
OPKG_ALGO_CONFIG(RsqrtConfig, RsqrtAlgo, INTRINSIC);
constexpr RsqrtConfig DEFAULT_RSQRT_CONFIG = {RsqrtAlgo::INTRINSIC};

// High-level math API.
enum class SinAlgo { POLYNOMIAL_APPROXIMATION = 0, RADIAN_REDUCTION };
OPKG_ALGO_CONFIG(SinConfig, SinAlgo, POLYNOMIAL_APPROXIMATION);
constexpr SinConfig defaultSinConfig;
enum class CosAlgo { POLYNOMIAL_APPROXIMATION = 0, RADIAN_REDUCTION };
OPKG_ALGO_CONFIG(CosConfig, CosAlgo, POLYNOMIAL_APPROXIMATION);
constexpr CosConfig defaultCosConfig;
enum class AtanAlgo { TAYLOR_EXPANSION = 0, POLYNOMIAL_APPROXIMATION };
OPKG_ALGO_CONFIG(AtanConfig, AtanAlgo, TAYLOR_EXPANSION);
constexpr AtanConfig defaultAtanConfig = {AtanAlgo::TAYLOR_EXPANSION};
enum class ErfAlgo { PADE_APPROXIMATION = 0, SUBSECTION_POLYNOMIAL_APPROXIMATION };
OPKG_ALGO_CONFIG(ErfConfig, ErfAlgo, PADE_APPROXIMATION);
constexpr ErfConfig defaultErfConfig = {ErfAlgo::PADE_APPROXIMATION};
constexpr uint32_t FMOD_ITERATION_NUM_MAX = 11;
enum class FmodAlgo { NORMAL = 0, ITERATION_COMPENSATION = 1 };
struct FmodConfig {
    FmodAlgo algo = FmodAlgo::NORMAL;
    uint32_t iterationNum = FMOD_ITERATION_NUM_MAX;
    constexpr operator opkg_sim::ConfigCode() const {
        return opkg_sim::code_field(algo, 0) | (opkg_sim::ConfigCode(iterationNum) << 32);
    }
    static constexpr FmodConfig from_code(opkg_sim::ConfigCode c) {
        return {opkg_sim::field_of<FmodAlgo>(c, 0), uint32_t(c >> 32)};
    }
};
constexpr FmodConfig DEFAULT_FMOD_CONFIG = {FmodAlgo::NORMAL, FMOD_ITERATION_NUM_MAX};
enum class TanhAlgo { INTRINSIC = 0, SUBSECTION_COMPENSATION };
OPKG_ALGO_CONFIG(TanhConfig, TanhAlgo, INTRINSIC);
constexpr TanhConfig DEFAULT_TANH_CONFIG = {TanhAlgo::INTRINSIC};
enum class PowerAlgo { INTRINSIC = 0, DOUBLE_FLOAT_TECH };
OPKG_ALGO_CONFIG(PowerConfig, PowerAlgo, INTRINSIC);
constexpr PowerConfig defaultPowerConfig = {PowerAlgo::INTRINSIC};

}  // namespace AscendC
#undef OPKG_ALGO_CONFIG

namespace opkg_sim {

// Div and Sqrt algorithms named *_FTZ_TRUE flush subnormal inputs and results to zero; the others
// keep them, as the sim's plain Div and Sqrt do.
constexpr bool ftz(AscendC::DivAlgo a) {
    return a == AscendC::DivAlgo::PRECISION_1ULP_FTZ_TRUE || a == AscendC::DivAlgo::PRECISION_0ULP_FTZ_TRUE;
}
constexpr bool ftz(AscendC::SqrtAlgo a) { return a == AscendC::SqrtAlgo::PRECISION_1ULP_FTZ_TRUE; }
// The 0-ulp algorithms of Div and Sqrt exist for float only (the devkit's pages: "目前，该算法支持float数据类型").
constexpr bool float_only(AscendC::DivAlgo a) {
    return a == AscendC::DivAlgo::DIFF_COMPENSATION || a == AscendC::DivAlgo::PRECISION_0ULP_FTZ_TRUE ||
           a == AscendC::DivAlgo::PRECISION_0ULP_FTZ_FALSE;
}
constexpr bool float_only(AscendC::SqrtAlgo a) {
    return a == AscendC::SqrtAlgo::FAST_INVERSE || a == AscendC::SqrtAlgo::PRECISION_0ULP_FTZ_FALSE;
}

}  // namespace opkg_sim

#endif
