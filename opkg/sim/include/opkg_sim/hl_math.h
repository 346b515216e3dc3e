// The high-level math library (CANN lib/math): elementwise functions with the overloads and
// SoC availability of CANN 8.1's headers. Each function is the exact mathematical one
// (libm in double, rounded once to T); the hardware approximates (docs/api.md).
#ifndef OPKG_SIM_HL_MATH_H
#define OPKG_SIM_HL_MATH_H

#include "opkg_sim/hlapi.h"

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
#define OPKG_HL_SPEC(NAME, HALF_LIVE, FLOAT_LIVE, FLOAT_REUSE_LIVE, EXPR)                                  \
    struct NAME##Spec {                                                                                  \
        static constexpr const char* name = #NAME;                                                       \
        static constexpr TmpRule rule{HALF_LIVE, FLOAT_LIVE, FLOAT_REUSE_LIVE, 0};                       \
        static double f(double x) { return EXPR; }                                                       \
    };

OPKG_HL_SPEC(Sin, 4, 3, 2, std::sin(x))
OPKG_HL_SPEC(Cos, 4, 3, 2, std::cos(x))
OPKG_HL_SPEC(Tan, 10, 4, 4, std::tan(x))
OPKG_HL_SPEC(Asin, 6, 4, 4, std::asin(x))
OPKG_HL_SPEC(Acos, 6, 4, 4, std::acos(x))
OPKG_HL_SPEC(Atan, 6, 5, 5, std::atan(x))
OPKG_HL_SPEC(Sinh, 4, 1, 1, std::sinh(x))
OPKG_HL_SPEC(Cosh, 6, 2, 2, std::cosh(x))
OPKG_HL_SPEC(Tanh, 2, 1, 1, std::tanh(x))
OPKG_HL_SPEC(Asinh, 3, 3, 3, std::asinh(x))
OPKG_HL_SPEC(Acosh, 2, 1, 1, std::acosh(x))
OPKG_HL_SPEC(Atanh, 4, 1, 1, std::atanh(x))
OPKG_HL_SPEC(Erf, 8, 3, 3, std::erf(x))
OPKG_HL_SPEC(Erfc, 12, 5, 5, std::erfc(x))
OPKG_HL_SPEC(Digamma, 8, 7, 6, digamma(x))
OPKG_HL_SPEC(Lgamma, 13, 8, 7, std::lgamma(x))
OPKG_HL_SPEC(Floor, 1, 1, 1, std::floor(x))
OPKG_HL_SPEC(Ceil, 2, 1, 1, std::ceil(x))
OPKG_HL_SPEC(Round, 2, 1, 1, std::nearbyint(x))
OPKG_HL_SPEC(Trunc, 2, 1, 1, std::trunc(x))
OPKG_HL_SPEC(Frac, 2, 1, 1, x - std::trunc(x))
OPKG_HL_SPEC(Sign, 3, 3, 3, sign(x))
OPKG_HL_SPEC(Log2, 1, 0, 0, std::log2(x))
OPKG_HL_SPEC(Log, 0, 0, 0, std::log(x))
OPKG_HL_SPEC(Log10, 0, 0, 0, std::log10(x))
OPKG_HL_SPEC(Sigmoid, 1, 1, 1, 1.0 / (1.0 + std::exp(-x)))

template <class Spec, class T, bool reuse>
inline void run_unary(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                      const AscendC::LocalTensor<uint8_t>* tmp, uint64_t count, SrcLoc loc) {
    static_assert(is_half_or_float<T>::value, "this high-level API supports half and float only (CANN 8.1)");
    const uint64_t need = tmp_min_bytes<T>(Spec::rule, reuse);
    if (tmp) {
        check_shared_tmp(*tmp, need, Spec::name, loc);
    } else {
        check_stack_tmp(need, Spec::name, loc);
    }
    hl_unary(dst, src, count, Spec::f, Spec::name, loc);
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

#endif
