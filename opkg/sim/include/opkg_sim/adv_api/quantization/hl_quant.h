// The quantization library (CANN lib/quantization): AscendQuant (to int8, per tensor or per
// channel), AscendDequant (int32 times a per-column scale), AscendAntiQuant (int8 plus offset
// times scale, per channel), every overload of CANN 8.1. The arithmetic follows the vector
// instructions the CANN kernels issue: each step rounded to its type (docs/api.md).
#ifndef OPKG_SIM_HL_QUANT_H
#define OPKG_SIM_HL_QUANT_H

#include "opkg_sim/adv_api/hlapi.h"
#include "opkg_sim/basic_api/vector/vector_cast_ops.h"

namespace AscendC {

struct AscendQuantConfig {
    constexpr AscendQuantConfig(const uint32_t calcCountIn, const uint32_t offsetCountIn, const uint32_t scaleCountIn,
                                const uint32_t workLocalSizeIn)
        : calcCount(calcCountIn), offsetCount(offsetCountIn), scaleCount(scaleCountIn), workLocalSize(workLocalSizeIn) {}
    uint32_t calcCount = 0;
    uint32_t offsetCount = 0;
    uint32_t scaleCount = 0;
    uint32_t workLocalSize = 0;
};
constexpr AscendQuantConfig ASCEND_QUANT_DEFAULT_CFG = {0, 0, 0, 0};

enum class DeQuantMode : uint8_t { DEQUANT_WITH_SINGLE_ROW = 0, DEQUANT_WITH_MULTI_ROW };

struct DequantParams {
    uint32_t m;          // rows
    uint32_t n;          // elements a row (32-byte aligned)
    uint32_t calCount;   // the first calCount of each row are dequantized
};

struct AntiQuantShapeInfo {
    uint32_t offsetHeight{0};
    uint32_t offsetWidth{0};
    uint32_t scaleHeight{0};
    uint32_t scaleWidth{0};
};

}  // namespace AscendC

namespace opkg_sim {

// v rounded to T (half and bfloat16_t through float): one vector instruction's result.
template <class T> inline double round_compute(double v) { return widen(round_to<T>(v)); }

// x rounded to half (RINT), then to int8 (RINT, saturating): the Cast chain to int8.
inline int8_t to_int8_via_half(double x) {
    const double h = double(static_cast<float>(static_cast<half>(static_cast<float>(x))));
    return saturate_to<int8_t>(h);
}

// One quantized element: x * scale + offset, each step rounded to T's compute type.
template <class T> inline int8_t quant_one(T x, double scale, double offset) {
    const double p = round_compute<T>(widen(x) * round_compute<T>(scale));
    return to_int8_via_half(round_compute<T>(p + round_compute<T>(offset)));
}

// scale[i % scaleCount] (and offset[i % offsetCount]) along the row: per channel.
template <class T, class S, class O>
inline void run_quant(const AscendC::LocalTensor<int8_t>& dst, const AscendC::LocalTensor<T>& src,
                      const AscendC::LocalTensor<uint8_t>* tmp, uint64_t count, S scale, O offset, const char* op,
                      SrcLoc loc) {
    static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value ||
                      std::is_same<T, bfloat16_t>::value, "AscendQuant takes half, float or bfloat16_t");
    check_tmp(tmp, tmp_min_bytes<T>(rules::AscendQuant, false), op, loc);   // GetAscendQuantMaxMinTmpSize's
    check_count(dst, count, op, "dst", loc);
    check_count(src, count, op, "src", loc);
    check_read(src.ptr_, count * sizeof(T), op, "src", loc);
    count_vec_of<T>(op, int64_t(count));
    for (uint64_t i = 0; i < count; ++i) dst.ptr_[i] = quant_one(src.ptr_[i], scale(i), offset(i));
    mark_written(dst.ptr_, count);
}

template <class T>
inline auto channel_operand(const AscendC::LocalTensor<T>& t, uint32_t n, uint64_t count, const char* op,
                            const char* role, SrcLoc loc) {
    if (n == 0 || count % n) {
        fail(loc, format("%s: calCount %llu is not a whole number of rows of %s's %u elements", op,
                         (unsigned long long)count, role, n));
    }
    check_count(t, n, op, role, loc);
    check_read(t.ptr_, uint64_t(n) * sizeof(T), op, role, loc);
    const T* p = t.ptr_;
    return [p, n](uint64_t i) { return widen(p[i % n]); };
}

inline auto constant(double v) {
    return [v](uint64_t) { return v; };
}

// dst(x, y) = src(x, y) * deqScale(y) for y < calCount, in float, rounded once to dstT; dst rows
// are n rounded up to 32 bytes of dstT.
template <class D, class S>
inline void run_dequant(const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<int32_t>& src,
                        const AscendC::LocalTensor<S>* scale_t, double scale_s,
                        const AscendC::LocalTensor<uint8_t>* tmp, AscendC::DequantParams p, uint64_t limit,
                        const char* op, SrcLoc loc) {
    static_assert(std::is_same<D, half>::value || std::is_same<D, float>::value || std::is_same<D, bfloat16_t>::value,
                  "AscendDequant's dst is half, float or bfloat16_t");
    static_assert(std::is_same<S, float>::value || std::is_same<S, bfloat16_t>::value || std::is_same<S, half>::value,
                  "AscendDequant's deqScale: float, bfloat16_t (the sim does not take the packed uint64_t form)");
    if (!p.m || !p.n || !p.calCount || p.calCount > p.n || (uint64_t(p.n) * 4) % 32) {
        fail(loc, format("%s: DequantParams {m %u, n %u, calCount %u}: n must be a non-zero multiple of 8 int32 "
                         "elements and calCount in [1, n]", op, p.m, p.n, p.calCount));
    }
    check_tmp(tmp, unit_tmp_bytes(rules::AscendDequant, sizeof(D), false, uint64_t(p.n) * 4), op, loc);
    const uint32_t per = 32 / sizeof(D);
    const uint64_t inner = (uint64_t(p.n) + per - 1) / per * per;
    check_count(src, uint64_t(p.m) * p.n, op, "src", loc);
    check_count(dst, (uint64_t(p.m) - 1) * inner + p.calCount, op, "dst", loc);
    if (scale_t) {
        check_count(*scale_t, p.calCount, op, "deqScale", loc);
        check_read(scale_t->ptr_, uint64_t(p.calCount) * sizeof(S), op, "deqScale", loc);
    }
    count_vec_of<float>(op, int64_t(p.m) * p.calCount);
    for (uint32_t r = 0; r < p.m; ++r) {
        if (uint64_t(r) * p.n >= limit) break;
        check_read(src.ptr_ + uint64_t(r) * p.n, uint64_t(p.calCount) * 4, op, "src", loc);
        for (uint32_t c = 0; c < p.calCount; ++c) {
            const double s = scale_t ? widen(scale_t->ptr_[c]) : scale_s;
            const float v = static_cast<float>(double(static_cast<float>(src.ptr_[uint64_t(r) * p.n + c])) * double(static_cast<float>(s)));
            dst.ptr_[r * inner + c] = static_cast<D>(v);
        }
        mark_written(dst.ptr_ + r * inner, uint64_t(p.calCount) * sizeof(D));
    }
}

template <class D, class S>
inline AscendC::DequantParams dequant_whole(const AscendC::LocalTensor<int32_t>& src,
                                            const AscendC::LocalTensor<S>& scale) {
    const uint32_t n = scale.GetSize();
    return AscendC::DequantParams{n ? src.GetSize() / n : 0, n, n};
}

// dst = (src + offset) * scale, int8 (or int4) source, per channel: isTranspose false takes
// offset/scale along the row (src [K, N], per column n), true along the column (src [N, K], per row).
template <class I, class O>
inline void run_antiquant(const AscendC::LocalTensor<O>& dst, const AscendC::LocalTensor<I>& src,
                          const AscendC::LocalTensor<O>* offset_t, const AscendC::LocalTensor<O>* scale_t, double offset_s,
                          double scale_s, const AscendC::LocalTensor<uint8_t>* tmp, uint32_t K, bool transpose,
                          const char* op, SrcLoc loc) {
    static_assert(std::is_same<I, int8_t>::value, "AscendAntiQuant: the sim takes int8_t sources");
    static_assert(std::is_same<O, half>::value || std::is_same<O, bfloat16_t>::value,
                  "AscendAntiQuant's dst is half or bfloat16_t");
    const uint64_t count = src.GetSize();
    if (K == 0 || count % K) fail(loc, format("%s: K %u does not divide src's %llu elements", op, K, (unsigned long long)count));
    // one row of the source at a time: N = count / K elements, or K when transposed
    check_tmp(tmp, unit_tmp_bytes(rules::AscendAntiQuant, sizeof(O), false, (transpose ? K : count / K) * 4), op, loc);
    const uint64_t N = count / K;
    // per-channel parameters: N of them (one per column, or per row when transposed)
    const uint64_t channels = N;
    check_count(dst, count, op, "dst", loc);
    check_read(src.ptr_, count, op, "src", loc);
    if (offset_t) {
        check_count(*offset_t, channels, op, "offset", loc);
        check_read(offset_t->ptr_, channels * sizeof(O), op, "offset", loc);
    }
    if (scale_t) {
        check_count(*scale_t, channels, op, "scale", loc);
        check_read(scale_t->ptr_, channels * sizeof(O), op, "scale", loc);
    }
    count_vec_of<O>(op, int64_t(count));
    for (uint64_t i = 0; i < count; ++i) {
        const uint64_t ch = transpose ? i / K : i % N;
        const double off = offset_t ? widen(offset_t->ptr_[ch]) : offset_s;
        const double sc = scale_t ? widen(scale_t->ptr_[ch]) : scale_s;
        const double v = round_compute<O>(double(src.ptr_[i]) + off);
        dst.ptr_[i] = round_to<O>(v * sc);
    }
    mark_written(dst.ptr_, count * sizeof(O));
}

}  // namespace opkg_sim

namespace AscendC {

#define OPKG_HL_QUANT_TPL template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
#define OPKG_HL_LOC opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()

// Per tensor.
OPKG_HL_QUANT_TPL inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset, const uint32_t calCount, OPKG_HL_LOC) {
    opkg_sim::run_quant(dstTensor, srcTensor, &sharedTmpBuffer, calCount, opkg_sim::constant(scale),
                        opkg_sim::constant(offset), "AscendQuant", loc);
}
OPKG_HL_QUANT_TPL inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
    const float scale, const float offset, const uint32_t calCount, OPKG_HL_LOC) {
    opkg_sim::run_quant(dstTensor, srcTensor, nullptr, calCount, opkg_sim::constant(scale), opkg_sim::constant(offset),
                        "AscendQuant", loc);
}
OPKG_HL_QUANT_TPL inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset, OPKG_HL_LOC) {
    opkg_sim::run_quant(dstTensor, srcTensor, &sharedTmpBuffer, srcTensor.GetSize(), opkg_sim::constant(scale),
                        opkg_sim::constant(offset), "AscendQuant", loc);
}
OPKG_HL_QUANT_TPL inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
    const float scale, const float offset, OPKG_HL_LOC) {
    opkg_sim::run_quant(dstTensor, srcTensor, nullptr, srcTensor.GetSize(), opkg_sim::constant(scale),
                        opkg_sim::constant(offset), "AscendQuant", loc);
}
// Per channel, scalar offset.
OPKG_HL_QUANT_TPL inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor, const T offset,
    const uint32_t scaleCount, const uint32_t calCount, OPKG_HL_LOC) {
    opkg_sim::run_quant(dstTensor, srcTensor, &sharedTmpBuffer, calCount,
                        opkg_sim::channel_operand(scaleTensor, scaleCount, calCount, "AscendQuant", "scaleTensor", loc),
                        opkg_sim::constant(opkg_sim::widen(offset)), "AscendQuant", loc);
}
OPKG_HL_QUANT_TPL inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<T>& scaleTensor, const T offset, const uint32_t scaleCount, const uint32_t calCount, OPKG_HL_LOC) {
    opkg_sim::run_quant(dstTensor, srcTensor, nullptr, calCount,
                        opkg_sim::channel_operand(scaleTensor, scaleCount, calCount, "AscendQuant", "scaleTensor", loc),
                        opkg_sim::constant(opkg_sim::widen(offset)), "AscendQuant", loc);
}
OPKG_HL_QUANT_TPL inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor, const T offset, OPKG_HL_LOC) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sharedTmpBuffer, scaleTensor, offset,
                                          scaleTensor.GetSize(), srcTensor.GetSize(), loc);
}
OPKG_HL_QUANT_TPL inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<T>& scaleTensor, const T offset, OPKG_HL_LOC) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, scaleTensor, offset, scaleTensor.GetSize(),
                                          srcTensor.GetSize(), loc);
}
// Per channel, offset tensor.
OPKG_HL_QUANT_TPL inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor,
    const uint32_t scaleCount, const uint32_t offsetCount, const uint32_t calCount, OPKG_HL_LOC) {
    opkg_sim::run_quant(dstTensor, srcTensor, &sharedTmpBuffer, calCount,
                        opkg_sim::channel_operand(scaleTensor, scaleCount, calCount, "AscendQuant", "scaleTensor", loc),
                        opkg_sim::channel_operand(offsetTensor, offsetCount, calCount, "AscendQuant", "offsetTensor", loc),
                        "AscendQuant", loc);
}
OPKG_HL_QUANT_TPL inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor, const uint32_t scaleCount,
    const uint32_t offsetCount, const uint32_t calCount, OPKG_HL_LOC) {
    opkg_sim::run_quant(dstTensor, srcTensor, nullptr, calCount,
                        opkg_sim::channel_operand(scaleTensor, scaleCount, calCount, "AscendQuant", "scaleTensor", loc),
                        opkg_sim::channel_operand(offsetTensor, offsetCount, calCount, "AscendQuant", "offsetTensor", loc),
                        "AscendQuant", loc);
}
OPKG_HL_QUANT_TPL inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor,
    OPKG_HL_LOC) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sharedTmpBuffer, scaleTensor, offsetTensor,
                                          scaleTensor.GetSize(), offsetTensor.GetSize(), srcTensor.GetSize(), loc);
}
OPKG_HL_QUANT_TPL inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor, OPKG_HL_LOC) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, scaleTensor, offsetTensor, scaleTensor.GetSize(),
                                          offsetTensor.GetSize(), srcTensor.GetSize(), loc);
}
#undef OPKG_HL_QUANT_TPL

#define OPKG_HL_DEQ_TPL template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
OPKG_HL_DEQ_TPL inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
    const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer, DequantParams params, OPKG_HL_LOC) {
    opkg_sim::run_dequant(dstTensor, srcTensor, &deqScale, 0.0, &sharedTmpBuffer, params, UINT64_MAX, "AscendDequant", loc);
}
OPKG_HL_DEQ_TPL inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
    const LocalTensor<scaleT>& deqScale, DequantParams params, OPKG_HL_LOC) {
    opkg_sim::run_dequant(dstTensor, srcTensor, &deqScale, 0.0, nullptr, params, UINT64_MAX, "AscendDequant", loc);
}
// calCount: the first calCount elements of src, as rows of deqScale.GetSize().
OPKG_HL_DEQ_TPL inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
    const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, OPKG_HL_LOC) {
    opkg_sim::check_count(srcTensor, calCount, "AscendDequant", "src", loc);
    opkg_sim::run_dequant(dstTensor, srcTensor, &deqScale, 0.0, &sharedTmpBuffer,
                          opkg_sim::dequant_whole<dstT>(srcTensor, deqScale), calCount, "AscendDequant", loc);
}
OPKG_HL_DEQ_TPL inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
    const LocalTensor<scaleT>& deqScale, const uint32_t calCount, OPKG_HL_LOC) {
    opkg_sim::check_count(srcTensor, calCount, "AscendDequant", "src", loc);
    opkg_sim::run_dequant(dstTensor, srcTensor, &deqScale, 0.0, nullptr,
                          opkg_sim::dequant_whole<dstT>(srcTensor, deqScale), calCount, "AscendDequant", loc);
}
OPKG_HL_DEQ_TPL inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
    const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer, OPKG_HL_LOC) {
    opkg_sim::run_dequant(dstTensor, srcTensor, &deqScale, 0.0, &sharedTmpBuffer,
                          opkg_sim::dequant_whole<dstT>(srcTensor, deqScale), UINT64_MAX, "AscendDequant", loc);
}
OPKG_HL_DEQ_TPL inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
    const LocalTensor<scaleT>& deqScale, OPKG_HL_LOC) {
    opkg_sim::run_dequant(dstTensor, srcTensor, &deqScale, 0.0, nullptr,
                          opkg_sim::dequant_whole<dstT>(srcTensor, deqScale), UINT64_MAX, "AscendDequant", loc);
}
// A scalar deqScale.
OPKG_HL_DEQ_TPL inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
    const scaleT deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer, DequantParams params, OPKG_HL_LOC) {
    opkg_sim::run_dequant<dstT, scaleT>(dstTensor, srcTensor, nullptr, opkg_sim::widen(deqScale), &sharedTmpBuffer,
                                        params, UINT64_MAX, "AscendDequant", loc);
}
OPKG_HL_DEQ_TPL inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
    const scaleT deqScale, DequantParams params, OPKG_HL_LOC) {
    opkg_sim::run_dequant<dstT, scaleT>(dstTensor, srcTensor, nullptr, opkg_sim::widen(deqScale), nullptr, params,
                                        UINT64_MAX, "AscendDequant", loc);
}
#undef OPKG_HL_DEQ_TPL

#define OPKG_HL_AQ_TPL template <typename InputDataType, typename OutputDataType, bool isTranspose>
OPKG_HL_AQ_TPL inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
    const LocalTensor<OutputDataType>& offset, const LocalTensor<OutputDataType>& scale,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t K, const AntiQuantShapeInfo& shapeInfo = {}, OPKG_HL_LOC) {
    (void)shapeInfo;
    opkg_sim::run_antiquant(dst, src, &offset, &scale, 0.0, 0.0, &sharedTmpBuffer, K, isTranspose, "AscendAntiQuant", loc);
}
OPKG_HL_AQ_TPL inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
    const LocalTensor<OutputDataType>& scale, const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t K,
    const AntiQuantShapeInfo& shapeInfo = {}, OPKG_HL_LOC) {
    (void)shapeInfo;
    opkg_sim::run_antiquant(dst, src, nullptr, &scale, 0.0, 0.0, &sharedTmpBuffer, K, isTranspose, "AscendAntiQuant", loc);
}
OPKG_HL_AQ_TPL inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
    const LocalTensor<OutputDataType>& offset, const LocalTensor<OutputDataType>& scale, const uint32_t K,
    const AntiQuantShapeInfo& shapeInfo = {}, OPKG_HL_LOC) {
    (void)shapeInfo;
    opkg_sim::run_antiquant(dst, src, &offset, &scale, 0.0, 0.0, nullptr, K, isTranspose, "AscendAntiQuant", loc);
}
OPKG_HL_AQ_TPL inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
    const OutputDataType offset, const OutputDataType scale, const LocalTensor<uint8_t>& sharedTmpBuffer,
    const uint32_t K, const AntiQuantShapeInfo& shapeInfo = {}, OPKG_HL_LOC) {
    (void)shapeInfo;
    opkg_sim::run_antiquant<InputDataType, OutputDataType>(dst, src, nullptr, nullptr, opkg_sim::widen(offset),
                                                           opkg_sim::widen(scale), &sharedTmpBuffer, K, isTranspose,
                                                           "AscendAntiQuant", loc);
}
OPKG_HL_AQ_TPL inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
    const OutputDataType scale, const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t K,
    const AntiQuantShapeInfo& shapeInfo = {}, OPKG_HL_LOC) {
    (void)shapeInfo;
    opkg_sim::run_antiquant<InputDataType, OutputDataType>(dst, src, nullptr, nullptr, 0.0, opkg_sim::widen(scale),
                                                           &sharedTmpBuffer, K, isTranspose, "AscendAntiQuant", loc);
}
OPKG_HL_AQ_TPL inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
    const OutputDataType offset, const OutputDataType scale, const uint32_t K,
    const AntiQuantShapeInfo& shapeInfo = {}, OPKG_HL_LOC) {
    (void)shapeInfo;
    opkg_sim::run_antiquant<InputDataType, OutputDataType>(dst, src, nullptr, nullptr, opkg_sim::widen(offset),
                                                           opkg_sim::widen(scale), nullptr, K, isTranspose,
                                                           "AscendAntiQuant", loc);
}
#undef OPKG_HL_AQ_TPL
#undef OPKG_HL_LOC

}  // namespace AscendC
#endif
