// The high-level activation library (CANN lib/activation) apart from Sigmoid (hl_math.h):
// Silu, Swish, Gelu, FasterGelu, FasterGeluV2, GeGLU, SwiGLU, ReGlu, with CANN's overloads and the
// formulas CANN's headers document, evaluated exactly (double) and rounded once (docs/api.md).
#ifndef OPKG_SIM_HL_ACTIVATION_H
#define OPKG_SIM_HL_ACTIVATION_H

#include "opkg_sim/adv_api/math/hl_math.h"

namespace opkg_sim {

inline double gelu(double x) { return x / (1.0 + std::exp(-1.59576912 * (x + 0.044715 * x * x * x))); }
inline double faster_gelu(double x) { return x / (1.0 + std::exp(-1.702 * x)); }
inline double faster_gelu_v2(double x) {
    const double t = x + 1e-12;
    const double sgn = t / std::fabs(t);
    const double c = std::fmin(std::fabs(0.7071 * x), 1.769) - 1.769;
    return x * (sgn * (-0.1444 * c * c + 0.5) + 0.5);
}

template <class T>
inline void check_activation_dtype() {
    static_assert(is_half_or_float<T>::value, "this activation API supports half and float only (CANN 8.1)");
}

// dst = src0 * f(src1), the GLU family.
template <class T, bool reuse, class F>
inline void run_glu(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                    const AscendC::LocalTensor<T>& src1, const AscendC::LocalTensor<uint8_t>* tmp, uint64_t count,
                    const TmpRule& rule, F f, const char* op, SrcLoc loc) {
    check_activation_dtype<T>();
    const uint64_t need = tmp_min_bytes<T>(rule, reuse);
    check_tmp(tmp, need, op, loc);
    hl_binary(dst, tensor_operand(src0, count, op, "src0", loc), tensor_operand(src1, count, op, "src1", loc),
              count, [f](double a, double b) { return a * f(b); }, op, loc);
}

}  // namespace opkg_sim

namespace AscendC {

OPKG_HL_API(OPKG_HL_TPL, Silu, (const LocalTensor<T>& src, uint32_t dataSize),
            (opkg_sim::check_activation_dtype<T>(),
             opkg_sim::hl_unary(dst, src, dataSize, [](double x) { return x / (1.0 + std::exp(-x)); }, "Silu", loc)))

OPKG_HL_API(OPKG_HL_TPL, Swish, (const LocalTensor<T>& src, uint32_t dataSize, const T scalarValue),
            (opkg_sim::check_activation_dtype<T>(),
             opkg_sim::hl_unary(dst, src, dataSize,
                                [b = opkg_sim::widen(scalarValue)](double x) { return x / (1.0 + std::exp(-b * x)); },
                                "Swish", loc)))

#define OPKG_HL_GELU_TPL (template <typename T, bool highPrecision = false, bool highPerformance = false>)
#define OPKG_HL_GELU(NAME, FN)                                                                                 \
    OPKG_HL_API(OPKG_HL_GELU_TPL, NAME, (const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, \
                const uint32_t dataSize),                                                                      \
                (opkg_sim::run_with_tmp<T, false>(dst, src, &sharedTmpBuffer, dataSize, opkg_sim::rules::Gelu, FN, \
                                                  #NAME, loc)))                                                \
    OPKG_HL_API(OPKG_HL_GELU_TPL, NAME, (const LocalTensor<T>& src, const uint32_t dataSize),                  \
                (opkg_sim::run_with_tmp<T, false>(dst, src, nullptr, dataSize, opkg_sim::rules::Gelu, FN, #NAME, loc)))
OPKG_HL_GELU(Gelu, opkg_sim::gelu)
OPKG_HL_GELU(FasterGelu, opkg_sim::faster_gelu)
OPKG_HL_GELU(FasterGeluV2, opkg_sim::faster_gelu_v2)
#undef OPKG_HL_GELU

#define OPKG_HL_GLU4(NAME, RULE, FN)                                                                           \
    OPKG_HL_API(OPKG_HL_TPL, NAME, (const LocalTensor<T>& src0, const LocalTensor<T>& src1,                    \
                const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount),                               \
                (opkg_sim::run_glu<T, isReuseSource>(dst, src0, src1, &sharedTmpBuffer, calCount, RULE, FN, #NAME, loc))) \
    OPKG_HL_API(OPKG_HL_TPL, NAME, (const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint32_t calCount), \
                (opkg_sim::run_glu<T, isReuseSource>(dst, src0, src1, nullptr, calCount, RULE, FN, #NAME, loc)))
#define OPKG_HL_GLU_WHOLE(NAME, RULE, FN)                                                                      \
    OPKG_HL_API(OPKG_HL_TPL, NAME, (const LocalTensor<T>& src0, const LocalTensor<T>& src1,                    \
                const LocalTensor<uint8_t>& sharedTmpBuffer),                                                  \
                (opkg_sim::run_glu<T, isReuseSource>(dst, src0, src1, &sharedTmpBuffer, src0.GetSize(), RULE, FN, \
                                                     #NAME, loc)))                                             \
    OPKG_HL_API(OPKG_HL_TPL, NAME, (const LocalTensor<T>& src0, const LocalTensor<T>& src1),                   \
                (opkg_sim::run_glu<T, isReuseSource>(dst, src0, src1, nullptr, src0.GetSize(), RULE, FN, #NAME, loc)))

OPKG_HL_GLU4(GeGLU, opkg_sim::rules::GeGLU, opkg_sim::gelu)
OPKG_HL_GLU_WHOLE(GeGLU, opkg_sim::rules::GeGLU, opkg_sim::gelu)
#if defined(__CCE_AICORE__) && (__CCE_AICORE__ == 200 || __CCE_AICORE__ == 220)
OPKG_HL_GLU4(ReGlu, opkg_sim::rules::ReGlu, [](double x) { return std::isnan(x) || x > 0 ? x : 0.0; })
#endif

// SwiGLU: dst = src0 * Swish(src1) with beta = scalarValue.
#define OPKG_HL_SWIGLU(PARAMS, TMP, COUNT)                                                                     \
    OPKG_HL_API(OPKG_HL_TPL, SwiGLU, PARAMS,                                                                   \
                (opkg_sim::run_glu<T, isReuseSource>(dst, src0, src1, TMP, COUNT, opkg_sim::rules::SwiGLU,     \
                    [b = double(scalarValue)](double x) { return x / (1.0 + std::exp(-b * x)); }, "SwiGLU", loc)))
OPKG_HL_SWIGLU((const LocalTensor<T>& src0, const LocalTensor<T>& src1, const float& scalarValue,
                const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount), &sharedTmpBuffer, calCount)
OPKG_HL_SWIGLU((const LocalTensor<T>& src0, const LocalTensor<T>& src1, const float& scalarValue,
                const uint32_t calCount), nullptr, calCount)
OPKG_HL_SWIGLU((const LocalTensor<T>& src0, const LocalTensor<T>& src1, const float& scalarValue,
                const LocalTensor<uint8_t>& sharedTmpBuffer), &sharedTmpBuffer, src0.GetSize())
OPKG_HL_SWIGLU((const LocalTensor<T>& src0, const LocalTensor<T>& src1, const float& scalarValue), nullptr,
               src0.GetSize())
#undef OPKG_HL_SWIGLU
#undef OPKG_HL_GLU4
#undef OPKG_HL_GLU_WHOLE

}  // namespace AscendC
#endif
