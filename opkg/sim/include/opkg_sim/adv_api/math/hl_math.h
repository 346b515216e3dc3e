// The high-level math library (CANN lib/math): elementwise functions with the overloads and
// SoC availability of CANN 8.1's headers. Each function is the exact mathematical one
// (libm in double, rounded once to T); the hardware approximates (docs/api.md).
#ifndef OPKG_SIM_HL_MATH_H
#define OPKG_SIM_HL_MATH_H

#include "opkg_sim/adv_api/hlapi.h"

namespace opkg_sim {

inline double digamma(double x) {
    if (std::isnan(x) || x == -INFINITY) return std::numeric_limits<double>::quiet_NaN();
    if (x == INFINITY) return x;
    if (x == 0.0) return std::signbit(x) ? INFINITY : -INFINITY;
    if (x < 0.0) {
        if (x == std::floor(x)) return std::numeric_limits<double>::quiet_NaN();   // poles
        // Reflection: psi(x) = psi(1 - x) - pi / tan(pi x).
        return digamma(1.0 - x) - M_PI / std::tan(M_PI * x);
    }
    double r = 0.0;
    while (x < 10.0) {
        r -= 1.0 / x;
        x += 1.0;
    }
    // Asymptotic series with Bernoulli numbers, accurate to double precision for x >= 10.
    double inv2 = 1.0 / (x * x);
    double series = inv2 * (1.0 / 12 - inv2 * (1.0 / 120 - inv2 * (1.0 / 252 - inv2 * (1.0 / 240 - inv2 * (1.0 / 132)))));
    return r + std::log(x) - 0.5 / x - series;
}

inline double sign(double x) {
    if (std::isnan(x)) return x;
    return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0);
}

// One unary API: its name, temporary-space rule, function and accepted dtypes.
#define OPKG_HL_SPEC(NAME, EXPR)                                  \
    struct NAME##Spec {                                                                                  \
        static constexpr const char* name = #NAME;                                                       \
        static constexpr TmpRule rule = rules::NAME;                          \
        static double f(double x) { return EXPR; }                                                       \
    };

OPKG_HL_SPEC(Sin, std::sin(x))
OPKG_HL_SPEC(Cos, std::cos(x))
OPKG_HL_SPEC(Tan, std::tan(x))
OPKG_HL_SPEC(Asin, std::asin(x))
OPKG_HL_SPEC(Acos, std::acos(x))
OPKG_HL_SPEC(Atan, std::atan(x))
OPKG_HL_SPEC(Sinh, std::sinh(x))
OPKG_HL_SPEC(Cosh, std::cosh(x))
OPKG_HL_SPEC(Tanh, std::tanh(x))
OPKG_HL_SPEC(Asinh, std::asinh(x))
OPKG_HL_SPEC(Acosh, std::acosh(x))
OPKG_HL_SPEC(Atanh, std::atanh(x))
OPKG_HL_SPEC(Erf, std::erf(x))
OPKG_HL_SPEC(Erfc, std::erfc(x))
OPKG_HL_SPEC(Digamma, digamma(x))
OPKG_HL_SPEC(Lgamma, std::lgamma(x))
OPKG_HL_SPEC(Floor, std::floor(x))
OPKG_HL_SPEC(Ceil, std::ceil(x))
OPKG_HL_SPEC(Round, std::nearbyint(x))
OPKG_HL_SPEC(Trunc, std::trunc(x))
OPKG_HL_SPEC(Frac, x - std::trunc(x))
OPKG_HL_SPEC(Sign, sign(x))
OPKG_HL_SPEC(Log2, std::log2(x))
OPKG_HL_SPEC(Log, std::log(x))
OPKG_HL_SPEC(Log10, std::log10(x))
OPKG_HL_SPEC(Sigmoid, 1.0 / (1.0 + std::exp(-x)))

// One unary half/float API with a temporary-space rule: f over src into dst.
template <class T, bool reuse, class F>
inline void run_with_tmp(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                         const AscendC::LocalTensor<uint8_t>* tmp, uint64_t count, const TmpRule& rule, F f,
                         const char* op, SrcLoc loc) {
    static_assert(is_half_or_float<T>::value, "this high-level API supports half and float only (CANN 8.1)");
    check_tmp(tmp, tmp_min_bytes<T>(rule, reuse), op, loc);
    hl_unary(dst, src, count, f, op, loc);
}

template <class Spec, class T, bool reuse>
inline void run_unary(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                      const AscendC::LocalTensor<uint8_t>* tmp, uint64_t count, SrcLoc loc) {
    run_with_tmp<T, reuse>(dst, src, tmp, count, Spec::rule, Spec::f, Spec::name, loc);
}

}  // namespace opkg_sim

#define OPKG_HL_TPL (template <typename T, bool isReuseSource = false>)
#define OPKG_HL_RUN(NAME, TMP, COUNT) \
    opkg_sim::run_unary<opkg_sim::NAME##Spec, T, isReuseSource>(dst, src, TMP, COUNT, loc)

// The four forms: (sharedTmpBuffer, calCount), (sharedTmpBuffer), (calCount), ().
#define OPKG_HL_FORM_TC(NAME)                                                                                    \
    OPKG_HL_API(OPKG_HL_TPL, NAME,                                                                               \
                (const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount), \
                OPKG_HL_RUN(NAME, &sharedTmpBuffer, calCount))
#define OPKG_HL_FORM_T(NAME)                                                                                     \
    OPKG_HL_API(OPKG_HL_TPL, NAME, (const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer),    \
                OPKG_HL_RUN(NAME, &sharedTmpBuffer, src.GetSize()))
#define OPKG_HL_FORM_C(NAME)                                                                                     \
    OPKG_HL_API(OPKG_HL_TPL, NAME, (const LocalTensor<T>& src, const uint32_t calCount),                         \
                OPKG_HL_RUN(NAME, nullptr, calCount))
#define OPKG_HL_FORM_0(NAME)                                                                                     \
    OPKG_HL_API(OPKG_HL_TPL, NAME, (const LocalTensor<T>& src), OPKG_HL_RUN(NAME, nullptr, src.GetSize()))
#define OPKG_HL_FORMS4(NAME) OPKG_HL_FORM_TC(NAME) OPKG_HL_FORM_T(NAME) OPKG_HL_FORM_C(NAME) OPKG_HL_FORM_0(NAME)
#define OPKG_HL_FORMS2(NAME) OPKG_HL_FORM_TC(NAME) OPKG_HL_FORM_C(NAME)

namespace AscendC {

// Availability per __CCE_AICORE__ (220: A2/A3, 200: 310P, 300: 310B, 100: 910A) as in CANN 8.1.
#if defined(__CCE_AICORE__) && (__CCE_AICORE__ == 200 || __CCE_AICORE__ == 220)
OPKG_HL_FORMS4(Sin)
OPKG_HL_FORMS4(Cos)
OPKG_HL_FORMS4(Tan)
OPKG_HL_FORMS4(Asin)
OPKG_HL_FORMS4(Acos)
OPKG_HL_FORMS4(Atan)
OPKG_HL_FORMS4(Sinh)
OPKG_HL_FORMS4(Cosh)
OPKG_HL_FORMS4(Tanh)
OPKG_HL_FORMS4(Erf)
OPKG_HL_FORMS4(Erfc)
OPKG_HL_FORMS4(Frac)
OPKG_HL_FORMS4(Trunc)
OPKG_HL_FORMS4(Sign)
OPKG_HL_FORMS2(Acosh)
OPKG_HL_FORMS2(Lgamma)
OPKG_HL_FORMS2(Round)
OPKG_HL_FORMS2(Ceil)
#endif
#if defined(__CCE_AICORE__) && (__CCE_AICORE__ == 200 || __CCE_AICORE__ == 220 || __CCE_AICORE__ == 300)
OPKG_HL_FORMS2(Floor)
#endif
#if defined(__CCE_AICORE__) && __CCE_AICORE__ >= 200
OPKG_HL_FORMS4(Asinh)
OPKG_HL_FORMS2(Digamma)
OPKG_HL_FORMS4(Log2)
OPKG_HL_FORM_C(Log)
OPKG_HL_FORM_0(Log)
OPKG_HL_FORM_C(Log10)
OPKG_HL_FORM_0(Log10)
#endif
OPKG_HL_FORMS4(Atanh)
#if defined(__CCE_AICORE__) && (__CCE_AICORE__ == 100 || __CCE_AICORE__ == 200 || __CCE_AICORE__ == 220)
OPKG_HL_FORMS4(Sigmoid)
#endif

}  // namespace AscendC

// Power, Exp (high-level), Clamp, Axpy (high-level), Fmod: APIs with a second operand.
namespace opkg_sim {

// Integer Power: exact, wrapping like 32-bit multiplication; a negative exponent gives 0 except
// for bases 1 and -1.
inline int64_t int_pow(int64_t base, int64_t e) {
    if (e < 0) return base == 1 ? 1 : (base == -1 ? ((-e) % 2 ? -1 : 1) : 0);
    uint32_t r = 1, b = uint32_t(base);
    for (uint64_t k = uint64_t(e); k; k >>= 1) {
        if (k & 1) r *= b;
        b *= b;
    }
    return int32_t(r);
}

template <class T> inline double power(double a, double b) {
    if constexpr (std::is_integral<T>::value) return double(int_pow(int64_t(a), int64_t(b)));
    else return std::pow(a, b);
}

template <class T, bool reuse, class A, class B>
inline void run_power(const AscendC::LocalTensor<T>& dst, A a, B b, const AscendC::LocalTensor<uint8_t>* tmp,
                      uint64_t count, bool scalar_exponent, SrcLoc loc) {
    static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value || std::is_same<T, int32_t>::value,
                  "Power supports half, float and int32_t (CANN 8.1)");
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 200
    const bool v200 = true;
#else
    const bool v200 = false;
#endif
    const uint64_t need = tmp_min_bytes<T>(rules::power(scalar_exponent, std::is_integral<T>::value, v200), reuse);
    check_tmp(tmp, need, "Power", loc);
    hl_binary(dst, a, b, count, [](double x, double y) { return power<T>(x, y); }, "Power", loc);
}

inline double exp(double x) { return std::exp(x); }

// ClampMax: min(x, scalar); ClampMin: max(x, scalar). NaN inputs stay NaN.
template <class T, bool reuse, bool is_max>
inline void run_clamp(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                      const AscendC::LocalTensor<uint8_t>* tmp, T scalar, uint64_t count, SrcLoc loc) {
    const double s = widen(scalar);
    run_with_tmp<T, reuse>(dst, src, tmp, count, rules::Clamp,
                           [s](double x) { return std::isnan(x) ? x : (is_max ? (x > s ? s : x) : (x < s ? s : x)); },
                           is_max ? "ClampMax" : "ClampMin", loc);
}

template <class T, class U, bool reuse>
inline void run_axpy(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& src, U scalar,
                     const AscendC::LocalTensor<uint8_t>& tmp, uint64_t count, SrcLoc loc) {
    static_assert(is_half_or_float<T>::value && is_half_or_float<U>::value,
                  "Axpy supports half and float (CANN 8.1)");
    static_assert(sizeof(T) >= sizeof(U), "Axpy: dst may be float with a half source, not the other way round");
    check_shared_tmp(tmp, tmp_min_bytes<U>(rules::Axpy, reuse), "Axpy", loc);
    const double s = widen(scalar);
    hl_binary(dst, tensor_operand(src, count, "Axpy", "src", loc), tensor_operand(dst, count, "Axpy", "dst", loc),
              count, [s](double x, double d) { return double(float(x * s)) + d; }, "Axpy", loc);
}

template <class T, bool reuse>
inline void run_fmod(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& a,
                     const AscendC::LocalTensor<T>& b, const AscendC::LocalTensor<uint8_t>* tmp, uint64_t count,
                     SrcLoc loc) {
    static_assert(is_half_or_float<T>::value, "Fmod supports half and float only (CANN 8.1)");
    const uint64_t need = tmp_min_bytes<T>(rules::Fmod, reuse);
    check_tmp(tmp, need, "Fmod", loc);
    hl_binary(dst, tensor_operand(a, count, "Fmod", "src0", loc), tensor_operand(b, count, "Fmod", "src1", loc),
              count, [](double x, double y) { return std::fmod(x, y); }, "Fmod", loc);
}

template <class T>
inline void run_xor(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& a,
                    const AscendC::LocalTensor<T>& b, const AscendC::LocalTensor<uint8_t>* tmp, uint64_t count,
                    SrcLoc loc) {
    static_assert(std::is_same<T, int16_t>::value || std::is_same<T, uint16_t>::value,
                  "Xor supports int16_t and uint16_t (CANN 8.1)");
    check_tmp(tmp, tmp_min_bytes<T>(rules::Xor, false), "Xor", loc);
    // calCount's own messages first; binary() then finds the operands fit.
    check_count(dst, count, "Xor", "dst", loc);
    check_count(a, count, "Xor", "src0", loc);
    check_count(b, count, "Xor", "src1", loc);
    using C = calc_t<T>;
    binary(dst, a, b, int64_t(count), [](C x, C y) { return C(x ^ y); }, "Xor", loc);
}

}  // namespace opkg_sim

#define OPKG_HL_POW_TT(TMP, COUNT)                                                                          \
    opkg_sim::run_power<T, isReuseSource>(dst, opkg_sim::tensor_operand(src0Tensor, COUNT, "Power", "src0", loc), \
                                          opkg_sim::tensor_operand(src1Tensor, COUNT, "Power", "src1", loc), TMP, \
                                          COUNT, false, loc)
#define OPKG_HL_POW_TS(TMP, COUNT)                                                                          \
    opkg_sim::run_power<T, isReuseSource>(dst, opkg_sim::tensor_operand(src0Tensor, COUNT, "Power", "src0", loc), \
                                          opkg_sim::scalar_operand(src1Scalar), TMP, COUNT, true, loc)
#define OPKG_HL_POW_ST(TMP, COUNT)                                                                          \
    opkg_sim::run_power<T, isReuseSource>(dst, opkg_sim::scalar_operand(src0Scalar),                        \
                                          opkg_sim::tensor_operand(src1Tensor, COUNT, "Power", "src1", loc), TMP, \
                                          COUNT, true, loc)

namespace AscendC {

#if defined(__CCE_AICORE__) && (__CCE_AICORE__ == 200 || __CCE_AICORE__ == 220)
OPKG_HL_API(OPKG_HL_TPL, Power, (const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
            const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount), OPKG_HL_POW_TT(&sharedTmpBuffer, calCount))
OPKG_HL_API(OPKG_HL_TPL, Power, (const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor, uint32_t calCount),
            OPKG_HL_POW_TT(nullptr, calCount))
OPKG_HL_API(OPKG_HL_TPL, Power, (const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
            const LocalTensor<uint8_t>& sharedTmpBuffer), OPKG_HL_POW_TT(&sharedTmpBuffer, src0Tensor.GetSize()))
OPKG_HL_API(OPKG_HL_TPL, Power, (const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor),
            OPKG_HL_POW_TT(nullptr, src0Tensor.GetSize()))
OPKG_HL_API(OPKG_HL_TPL, Power, (const LocalTensor<T>& src0Tensor, const T& src1Scalar,
            const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount), OPKG_HL_POW_TS(&sharedTmpBuffer, calCount))
OPKG_HL_API(OPKG_HL_TPL, Power, (const LocalTensor<T>& src0Tensor, const T& src1Scalar, uint32_t calCount),
            OPKG_HL_POW_TS(nullptr, calCount))
OPKG_HL_API(OPKG_HL_TPL, Power, (const LocalTensor<T>& src0Tensor, const T& src1Scalar,
            const LocalTensor<uint8_t>& sharedTmpBuffer), OPKG_HL_POW_TS(&sharedTmpBuffer, src0Tensor.GetSize()))
OPKG_HL_API(OPKG_HL_TPL, Power, (const LocalTensor<T>& src0Tensor, const T& src1Scalar),
            OPKG_HL_POW_TS(nullptr, src0Tensor.GetSize()))
OPKG_HL_API(OPKG_HL_TPL, Power, (const T& src0Scalar, const LocalTensor<T>& src1Tensor,
            const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount), OPKG_HL_POW_ST(&sharedTmpBuffer, calCount))
OPKG_HL_API(OPKG_HL_TPL, Power, (const T& src0Scalar, const LocalTensor<T>& src1Tensor, uint32_t calCount),
            OPKG_HL_POW_ST(nullptr, calCount))
OPKG_HL_API(OPKG_HL_TPL, Power, (const T& src0Scalar, const LocalTensor<T>& src1Tensor,
            const LocalTensor<uint8_t>& sharedTmpBuffer), OPKG_HL_POW_ST(&sharedTmpBuffer, src1Tensor.GetSize()))
OPKG_HL_API(OPKG_HL_TPL, Power, (const T& src0Scalar, const LocalTensor<T>& src1Tensor),
            OPKG_HL_POW_ST(nullptr, src1Tensor.GetSize()))

#define OPKG_HL_CLAMP(NAME, IS_MAX)                                                                        \
    OPKG_HL_API(OPKG_HL_TPL, NAME, (const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,  \
                const T scalar, const uint32_t calCount),                                                 \
                (opkg_sim::run_clamp<T, isReuseSource, IS_MAX>(dst, src, &sharedTmpBuffer, scalar, calCount, loc))) \
    OPKG_HL_API(OPKG_HL_TPL, NAME, (const LocalTensor<T>& src, const T scalar, const uint32_t calCount),    \
                (opkg_sim::run_clamp<T, isReuseSource, IS_MAX>(dst, src, nullptr, scalar, calCount, loc)))
OPKG_HL_CLAMP(ClampMax, true)
OPKG_HL_CLAMP(ClampMin, false)
#undef OPKG_HL_CLAMP

#define OPKG_HL_FMOD(PARAMS, TMP, COUNT) \
    OPKG_HL_API(OPKG_HL_TPL, Fmod, PARAMS, (opkg_sim::run_fmod<T, isReuseSource>(dst, src0Tensor, src1Tensor, TMP, COUNT, loc)))
OPKG_HL_FMOD((const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
              const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount), &sharedTmpBuffer, calCount)
OPKG_HL_FMOD((const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor, const uint32_t calCount),
             nullptr, calCount)
OPKG_HL_FMOD((const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
              const LocalTensor<uint8_t>& sharedTmpBuffer), &sharedTmpBuffer, src0Tensor.GetSize())
OPKG_HL_FMOD((const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor), nullptr, src0Tensor.GetSize())
#undef OPKG_HL_FMOD
#endif

// Xor (int16/uint16): exact.
#if defined(__CCE_AICORE__) && (__CCE_AICORE__ == 200 || __CCE_AICORE__ == 220 || __CCE_AICORE__ == 300)
#define OPKG_HL_XOR(PARAMS, TMP, COUNT) \
    OPKG_HL_API(OPKG_HL_TPL, Xor, PARAMS, (opkg_sim::run_xor<T>(dst, src0Tensor, src1Tensor, TMP, COUNT, loc)))
OPKG_HL_XOR((const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount), &sharedTmpBuffer, calCount)
OPKG_HL_XOR((const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer), &sharedTmpBuffer, src0Tensor.GetSize())
OPKG_HL_XOR((const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor, const uint32_t calCount), nullptr,
            calCount)
OPKG_HL_XOR((const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor), nullptr, src0Tensor.GetSize())
#undef OPKG_HL_XOR
#endif

// Exp with the Taylor expansion level of CANN's template (the sim is exact at every level).
#define OPKG_HL_EXP_TPL (template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>)
OPKG_HL_API(OPKG_HL_EXP_TPL, Exp, (const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
            const uint32_t calCount),
            (opkg_sim::run_with_tmp<T, isReuseSource>(dst, src, &sharedTmpBuffer, calCount,
                                                      opkg_sim::rules::Exp, opkg_sim::exp, "Exp", loc)))
OPKG_HL_API(OPKG_HL_EXP_TPL, Exp, (const LocalTensor<T>& src, const uint32_t calCount),
            (opkg_sim::run_with_tmp<T, isReuseSource>(dst, src, nullptr, calCount, opkg_sim::rules::Exp,
                                                      opkg_sim::exp, "Exp", loc)))
#undef OPKG_HL_EXP_TPL

// dst = src * scalar + dst, the product rounded to float first.
#define OPKG_HL_AXPY_TPL (template <typename T, typename U, bool isReuseSource = false>)
OPKG_HL_API(OPKG_HL_AXPY_TPL, Axpy, (const LocalTensor<U>& src, const U scalarValue,
            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount),
            (opkg_sim::run_axpy<T, U, isReuseSource>(dst, src, scalarValue, sharedTmpBuffer, calCount, loc)))
#undef OPKG_HL_AXPY_TPL

}  // namespace AscendC

#include "opkg_sim/adv_api/math/hl_math_950.h"   // the 950's forms, which use the macros above

#endif
