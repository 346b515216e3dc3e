// The high-level math library of the Ascend 950 (asc-devkit include/adv_api/math/*.h with
// __NPU_ARCH__ 3510): the APIs the devkit declares for it, several with an algorithm
// configuration as third template parameter (`Sin<T, false, config>`). Each algorithm computes the
// same mathematical function; the sim computes it exactly, as for the other SoCs (docs/api.md).
// What a configuration changes on the sim is what it changes in the devkit's contract: the dtypes
// it accepts (static_assert) and Fmod's iteration count range.
#ifndef OPKG_SIM_HL_MATH_950_H
#define OPKG_SIM_HL_MATH_950_H

#include "opkg_sim/adv_api/math/hl_math.h"
#include "opkg_sim/basic_api/core/algo_config.h"

#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510

namespace opkg_sim {

// The devkit's 950 implementations compute in registers and take little or no temporary UB, in
// sizes the sim does not model: a sharedTmpBuffer is checked for position and alignment only.
template <class Spec, class T>
inline void run_unary_950(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                          const AscendC::LocalTensor<uint8_t>* tmp, uint64_t count, SrcLoc loc) {
    static_assert(is_half_or_float<T>::value, "this high-level math API supports half and float on the Ascend 950");
    check_tmp(tmp, 0, Spec::name, loc);
    hl_unary(dst, src, count, Spec::f, Spec::name, loc);
}

template <class T, ConfigCode code>
inline void run_fmod_950(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& a,
                         const AscendC::LocalTensor<T>& b, const AscendC::LocalTensor<uint8_t>* tmp, uint64_t count,
                         SrcLoc loc) {
    constexpr AscendC::FmodConfig config = AscendC::FmodConfig::from_code(code);
    if constexpr (config.algo == AscendC::FmodAlgo::ITERATION_COMPENSATION) {
        static_assert(config.iterationNum >= 1 && config.iterationNum <= AscendC::FMOD_ITERATION_NUM_MAX,
                      "Fmod: the iteration number must be in [1, 11]");
        static_assert(std::is_same<T, float>::value, "Fmod with ITERATION_COMPENSATION supports float only");
    } else {
        static_assert(is_half_or_float<T>::value, "Fmod supports half and float on the Ascend 950");
    }
    check_tmp(tmp, 0, "Fmod", loc);
    hl_binary(dst, tensor_operand(a, count, "Fmod", "src0", loc), tensor_operand(b, count, "Fmod", "src1", loc),
              count, [](double x, double y) { return std::fmod(x, y); }, "Fmod", loc);
}

// Power on the 950: DOUBLE_FLOAT_TECH for half/float/bfloat16, INTRINSIC for the 8- to 32-bit
// integers and half/float. Integer powers wrap at the type's width.
template <class T, ConfigCode code, class A, class B>
inline void run_power_950(const AscendC::LocalTensor<T>& dst, A a, B b, const AscendC::LocalTensor<uint8_t>* tmp,
                          uint64_t count, SrcLoc loc) {
    constexpr bool fp = is_half_or_float<T>::value || std::is_same<T, bfloat16_t>::value;
    constexpr AscendC::PowerConfig config = AscendC::PowerConfig::from_code(code);
    if constexpr (config.algo == AscendC::PowerAlgo::DOUBLE_FLOAT_TECH) {
        static_assert(fp, "Power with DOUBLE_FLOAT_TECH supports half, float and bfloat16 only");
    } else {
        static_assert(is_half_or_float<T>::value ||
                          (std::is_integral<T>::value && sizeof(T) <= 4 && !std::is_same<T, bool>::value),
                      "Power with INTRINSIC supports uint8/int8/uint16/int16/uint32/int32/half/float");
    }
    check_tmp(tmp, 0, "Power", loc);
    hl_binary(dst, a, b, count, [](double x, double y) {
        if constexpr (std::is_integral<T>::value) return double(T(int_pow(int64_t(x), int64_t(y))));
        else return std::pow(x, y);
    }, "Power", loc);
}

}  // namespace opkg_sim

#define OPKG_HL950_RUN(NAME, TMP, COUNT) opkg_sim::run_unary_950<opkg_sim::NAME##Spec, T>(dst, src, TMP, COUNT, loc)
// The four forms of one unary API under template head TPL.
#define OPKG_HL950_FORMS4(TPL, NAME)                                                                         \
    OPKG_HL_API(TPL, NAME, (const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,          \
                const uint32_t calCount), OPKG_HL950_RUN(NAME, &sharedTmpBuffer, calCount))                  \
    OPKG_HL_API(TPL, NAME, (const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer),         \
                OPKG_HL950_RUN(NAME, &sharedTmpBuffer, src.GetSize()))                                        \
    OPKG_HL_API(TPL, NAME, (const LocalTensor<T>& src, const uint32_t calCount),                              \
                OPKG_HL950_RUN(NAME, nullptr, calCount))                                                      \
    OPKG_HL_API(TPL, NAME, (const LocalTensor<T>& src), OPKG_HL950_RUN(NAME, nullptr, src.GetSize()))
// (sharedTmpBuffer, calCount) and (calCount) only.
#define OPKG_HL950_FORMS2(TPL, NAME)                                                                         \
    OPKG_HL_API(TPL, NAME, (const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,          \
                const uint32_t calCount), OPKG_HL950_RUN(NAME, &sharedTmpBuffer, calCount))                  \
    OPKG_HL_API(TPL, NAME, (const LocalTensor<T>& src, const uint32_t calCount),                              \
                OPKG_HL950_RUN(NAME, nullptr, calCount))
// The configuration by its code (core/algo_config.h: g++ 12 and reference template arguments).
#define OPKG_HL950_CFG(CONFIG, DEFAULT) \
    (template <typename T, bool isReuseSource = false, opkg_sim::ConfigCode config = DEFAULT>)

namespace AscendC {

// With an algorithm configuration.
OPKG_HL950_FORMS4(OPKG_HL950_CFG(SinConfig, defaultSinConfig), Sin)
OPKG_HL950_FORMS4(OPKG_HL950_CFG(CosConfig, defaultCosConfig), Cos)
OPKG_HL950_FORMS4(OPKG_HL950_CFG(ErfConfig, defaultErfConfig), Erf)
OPKG_HL950_FORMS4(OPKG_HL950_CFG(TanhConfig, DEFAULT_TANH_CONFIG), Tanh)
// Atan's polynomial approximation is float only (atan_3510_impl.h).
#define OPKG_HL950_ATAN(TMP, COUNT)                                                                          \
    static_assert(AtanConfig::from_code(config).algo == AtanAlgo::TAYLOR_EXPANSION ||                    \
                  std::is_same<T, float>::value,                                                        \
                  "Atan with POLYNOMIAL_APPROXIMATION supports float only");                                \
    OPKG_HL950_RUN(Atan, TMP, COUNT)
OPKG_HL_API(OPKG_HL950_CFG(AtanConfig, defaultAtanConfig), Atan,
            (const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount),
            OPKG_HL950_ATAN(&sharedTmpBuffer, calCount))
OPKG_HL_API(OPKG_HL950_CFG(AtanConfig, defaultAtanConfig), Atan,
            (const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer),
            OPKG_HL950_ATAN(&sharedTmpBuffer, src.GetSize()))
OPKG_HL_API(OPKG_HL950_CFG(AtanConfig, defaultAtanConfig), Atan, (const LocalTensor<T>& src, const uint32_t calCount),
            OPKG_HL950_ATAN(nullptr, calCount))
OPKG_HL_API(OPKG_HL950_CFG(AtanConfig, defaultAtanConfig), Atan, (const LocalTensor<T>& src),
            OPKG_HL950_ATAN(nullptr, src.GetSize()))
#undef OPKG_HL950_ATAN

// Without one.
OPKG_HL950_FORMS4(OPKG_HL_TPL, Tan)
OPKG_HL950_FORMS4(OPKG_HL_TPL, Asin)
OPKG_HL950_FORMS4(OPKG_HL_TPL, Acos)
OPKG_HL950_FORMS4(OPKG_HL_TPL, Sinh)
OPKG_HL950_FORMS4(OPKG_HL_TPL, Cosh)
OPKG_HL950_FORMS4(OPKG_HL_TPL, Erfc)
OPKG_HL950_FORMS4(OPKG_HL_TPL, Frac)
OPKG_HL950_FORMS4(OPKG_HL_TPL, Trunc)
OPKG_HL950_FORMS4(OPKG_HL_TPL, Sign)
OPKG_HL950_FORMS4(OPKG_HL_TPL, Acosh)
OPKG_HL950_FORMS2(OPKG_HL_TPL, Lgamma)
OPKG_HL950_FORMS2(OPKG_HL_TPL, Round)
OPKG_HL950_FORMS2(OPKG_HL_TPL, Ceil)
OPKG_HL950_FORMS2(OPKG_HL_TPL, Floor)

#define OPKG_HL950_FMOD(PARAMS, TMP, COUNT)                                                               \
    OPKG_HL_API(OPKG_HL950_CFG(FmodConfig, DEFAULT_FMOD_CONFIG), Fmod, PARAMS,                            \
                (opkg_sim::run_fmod_950<T, config>(dst, src0Tensor, src1Tensor, TMP, COUNT, loc)))
OPKG_HL950_FMOD((const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount), &sharedTmpBuffer, calCount)
OPKG_HL950_FMOD((const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor, const uint32_t calCount),
                nullptr, calCount)
OPKG_HL950_FMOD((const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer), &sharedTmpBuffer, src0Tensor.GetSize())
OPKG_HL950_FMOD((const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor), nullptr, src0Tensor.GetSize())
#undef OPKG_HL950_FMOD

// Power: tensor^tensor, tensor^scalar, scalar^tensor, each with and without sharedTmpBuffer and calCount.
#define OPKG_HL950_POW(PARAMS, A, B, TMP, COUNT)                                                           \
    OPKG_HL_API(OPKG_HL950_CFG(PowerConfig, defaultPowerConfig), Power, PARAMS,                           \
                (opkg_sim::run_power_950<T, config>(dst, A, B, TMP, COUNT, loc)))
#define OPKG_HL950_TENSOR(NAME, COUNT) opkg_sim::tensor_operand(NAME, COUNT, "Power", #NAME, loc)
#define OPKG_HL950_POW4(P0, P1, A, B, SIZE)                                                                \
    OPKG_HL950_POW((P0, P1, const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount),              \
                   OPKG_HL950_##A(calCount), OPKG_HL950_##B(calCount), &sharedTmpBuffer, calCount)        \
    OPKG_HL950_POW((P0, P1, uint32_t calCount), OPKG_HL950_##A(calCount), OPKG_HL950_##B(calCount),       \
                   nullptr, calCount)                                                                       \
    OPKG_HL950_POW((P0, P1, const LocalTensor<uint8_t>& sharedTmpBuffer), OPKG_HL950_##A(SIZE),           \
                   OPKG_HL950_##B(SIZE), &sharedTmpBuffer, SIZE)                                            \
    OPKG_HL950_POW((P0, P1), OPKG_HL950_##A(SIZE), OPKG_HL950_##B(SIZE), nullptr, SIZE)
#define OPKG_HL950_T0(C) OPKG_HL950_TENSOR(src0Tensor, C)
#define OPKG_HL950_T1(C) OPKG_HL950_TENSOR(src1Tensor, C)
#define OPKG_HL950_S0(C) opkg_sim::scalar_operand(src0Scalar)
#define OPKG_HL950_S1(C) opkg_sim::scalar_operand(src1Scalar)
OPKG_HL950_POW4(const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor, T0, T1, src0Tensor.GetSize())
OPKG_HL950_POW4(const LocalTensor<T>& src0Tensor, const T& src1Scalar, T0, S1, src0Tensor.GetSize())
OPKG_HL950_POW4(const T& src0Scalar, const LocalTensor<T>& src1Tensor, S0, T1, src1Tensor.GetSize())
#undef OPKG_HL950_T0
#undef OPKG_HL950_T1
#undef OPKG_HL950_S0
#undef OPKG_HL950_S1
#undef OPKG_HL950_POW4
#undef OPKG_HL950_TENSOR
#undef OPKG_HL950_POW

}  // namespace AscendC

#undef OPKG_HL950_CFG
#undef OPKG_HL950_FORMS4
#undef OPKG_HL950_FORMS2
#undef OPKG_HL950_RUN

#endif  // __NPU_ARCH__ == 3510
#endif
