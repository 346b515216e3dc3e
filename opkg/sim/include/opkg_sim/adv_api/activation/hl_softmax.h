// SoftMax (CANN lib/activation/softmax.h) over the last axis of an [srcM, srcK] tensor whose
// rows hold oriSrcK valid elements: max and sum per row, dst = exp(x - max) / sum. The sum and
// max outputs hold one 32-byte block per row, the row's value repeated (the layout CANN documents
// for ND). Computed in double from the row, rounded once per output; docs/api.md has the model.
#ifndef OPKG_SIM_HL_SOFTMAX_H
#define OPKG_SIM_HL_SOFTMAX_H

#include "opkg_sim/adv_api/hlapi.h"
#include "opkg_sim/adv_api/hl_rules.h"
#include "lib/activation/softmax_tilingdata.h"

namespace AscendC {

using SoftMaxTiling = optiling::SoftMaxTiling;

struct SoftMaxShapeInfo {
    uint32_t srcM{0};
    uint32_t srcK{0};
    uint32_t oriSrcM{0};
    uint32_t oriSrcK{0};
};

enum class SoftmaxMode { SOFTMAX_NORMAL = 0, SOFTMAX_OUTPUT_WITHOUT_BRC = 1 };

// The softmax family's reduce-along-the-last-axis and broadcast shapes (the devkit's
// softmax_common_utils.h, fields as there): kernels name them through `using AscendC::...`
// (ops-nn's weight_quant_batch_matmul_v2).
struct ReduceLastND {
    uint32_t originalSrcM;
    uint32_t originalSrcK;
    uint32_t srcM;
    uint32_t srcK;
    uint32_t dstM;
    uint32_t dstK;
};

struct SoftmaxConfig {
    constexpr SoftmaxConfig(const bool isCheckTilingIn) : isCheckTiling(isCheckTilingIn) {}
    constexpr SoftmaxConfig(const bool isCheckTilingIn, const uint32_t oriSrcMIn, const uint32_t oriSrcKIn)
        : isCheckTiling(isCheckTilingIn), oriSrcM(oriSrcMIn), oriSrcK(oriSrcKIn) {}
    constexpr SoftmaxConfig(const bool isCheckTilingIn, const uint32_t oriSrcMIn, const uint32_t oriSrcKIn,
                            const SoftmaxMode modeIn)
        : isCheckTiling(isCheckTilingIn), oriSrcM(oriSrcMIn), oriSrcK(oriSrcKIn), mode(modeIn) {}
    bool isCheckTiling = true;
    uint32_t oriSrcM = 0;
    uint32_t oriSrcK = 0;
    SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};
constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};

}  // namespace AscendC

namespace opkg_sim {

// The shape a call works on: the shape info if it names one, else the tiling's.
inline AscendC::SoftMaxShapeInfo softmax_shape(const AscendC::SoftMaxTiling& tiling,
                                               const AscendC::SoftMaxShapeInfo& info) {
    AscendC::SoftMaxShapeInfo s = info;
    if (!s.srcM || !s.srcK) {
#ifdef OPKG_SIM_KERNEL
        s.srcM = tiling.srcM;
        s.srcK = tiling.srcK;
#else   // the host-mode tiling class (a source that includes kernel_operator.h on the host side)
        s.srcM = tiling.get_srcM();
        s.srcK = tiling.get_srcK();
#endif
    }
    if (!s.oriSrcM) s.oriSrcM = s.srcM;
    if (!s.oriSrcK) s.oriSrcK = s.srcK;
    return s;
}

// With no SoftMaxShapeInfo argument CANN's SoftMax and SoftmaxFlashV2 take the shape from the
// source tensor's ShapeInfo (SetShapeInfo), last axis against the rest, and reduce over its
// original (unpadded) last axis; a tensor without one leaves the tiling's shape.
template <class T>
inline AscendC::SoftMaxShapeInfo tensor_shape(const AscendC::SoftMaxShapeInfo& info, const AscendC::LocalTensor<T>& src) {
    const AscendC::ShapeInfo& t = src.shapeInfo_;
    if ((info.srcM && info.srcK) || t.shapeDim == 0) return info;
    auto last_axis = [](const uint32_t* dims, uint8_t n, uint32_t& m, uint32_t& k) {
        m = 1;
        for (uint8_t i = 0; i + 1 < n; ++i) m *= dims[i];
        k = n ? dims[n - 1] : 0;
    };
    AscendC::SoftMaxShapeInfo s{};
    last_axis(t.shape, t.shapeDim, s.srcM, s.srcK);
    last_axis(t.originalShape, t.originalShapeDim, s.oriSrcM, s.oriSrcK);
    return s;
}

template <bool nz> inline void nd_only() {  // used by SoftMax and SimpleSoftMax
    static_assert(!nz, "SoftMax: the sim emulates the ND format only (isDataFormatNZ = false)");
}

// dst (T) and, when given, sum and max (S: T, or float for half input) per row.
template <class T, class S>
inline void run_softmax(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<S>* sum,
                        const AscendC::LocalTensor<S>* max, const AscendC::LocalTensor<T>& src,
                        const AscendC::LocalTensor<uint8_t>* tmp, const AscendC::SoftMaxTiling& tiling,
                        const AscendC::SoftMaxShapeInfo& info, SrcLoc loc) {
    static_assert(is_half_or_float<T>::value && is_half_or_float<S>::value, "SoftMax supports half and float");
    const char* op = "SoftMax";
    note(loc);
    const AscendC::SoftMaxShapeInfo s = softmax_shape(tiling, tensor_shape(info, src));
    if (!s.srcM || !s.srcK) {
        fail(loc, format("%s: the shape is empty (srcM %u, srcK %u): pass a SoftMaxShapeInfo or a tiling from "
                         "SoftMaxTilingFunc", op, s.srcM, s.srcK));
    }
    if ((uint64_t(s.srcK) * sizeof(T)) % 32) {
        fail(loc, format("%s: srcK %u is not a whole number of 32-byte blocks of %s", op, s.srcK, type_name<T>()));
    }
    if (s.oriSrcK > s.srcK || s.oriSrcM > s.srcM) {
        fail(loc, format("%s: oriSrcK %u / oriSrcM %u exceed srcK %u / srcM %u", op, s.oriSrcK, s.oriSrcM, s.srcK,
                         s.srcM));
    }
    const uint64_t need = softmax_tmp_bytes(s.srcK, sizeof(T));
    check_tmp(tmp, need, op, loc);
    const uint64_t count = uint64_t(s.srcM) * s.srcK;
    check_count(dst, count, op, "dst", loc);
    check_count(src, count, op, "src", loc);
    const uint32_t per_block = 32 / sizeof(S);
    if (sum) check_count(*sum, uint64_t(s.srcM) * per_block, op, "sumTensor", loc);
    if (max) check_count(*max, uint64_t(s.srcM) * per_block, op, "maxTensor", loc);
    count_vec_of<T>(op, int64_t(count));
    for (uint32_t r = 0; r < s.srcM; ++r) {
        const T* x = src.ptr_ + uint64_t(r) * s.srcK;
        check_read(x, uint64_t(s.oriSrcK) * sizeof(T), op, "src", loc);
        double m = -INFINITY;
        for (uint32_t k = 0; k < s.oriSrcK; ++k) m = std::fmax(m, widen(x[k]));
        double total = 0.0;
        for (uint32_t k = 0; k < s.oriSrcK; ++k) total += std::exp(widen(x[k]) - m);
        T* y = dst.ptr_ + uint64_t(r) * s.srcK;
        for (uint32_t k = 0; k < s.oriSrcK; ++k) y[k] = round_to<T>(std::exp(widen(x[k]) - m) / total);
        mark_written(y, uint64_t(s.oriSrcK) * sizeof(T));
        for (uint32_t b = 0; b < per_block; ++b) {
            if (sum) sum->ptr_[uint64_t(r) * per_block + b] = round_to<S>(total);
            if (max) max->ptr_[uint64_t(r) * per_block + b] = round_to<S>(m);
        }
    }
    if (sum) mark_written(sum->ptr_, uint64_t(s.srcM) * per_block * sizeof(S));
    if (max) mark_written(max->ptr_, uint64_t(s.srcM) * per_block * sizeof(S));
}

// SimpleSoftMax: dst = exp(x - max) / sum with the row's max and sum given (one 32-byte block per
// row, its first element read), as a second pass after SoftMax/SoftmaxFlash computed them.
template <class T, class S>
inline void run_simple_softmax(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<S>& sum,
                               const AscendC::LocalTensor<S>& max, const AscendC::LocalTensor<T>& src,
                               const AscendC::LocalTensor<uint8_t>* tmp, const AscendC::SoftMaxTiling& tiling,
                               const AscendC::SoftMaxShapeInfo& info, SrcLoc loc) {
    static_assert(is_half_or_float<T>::value && is_half_or_float<S>::value, "SimpleSoftMax supports half and float");
    const char* op = "SimpleSoftMax";
    note(loc);
    const AscendC::SoftMaxShapeInfo s = softmax_shape(tiling, info);
    if (!s.srcM || !s.srcK || (uint64_t(s.srcK) * sizeof(T)) % 32 || s.oriSrcK > s.srcK) {
        fail(loc, format("%s: shape srcM %u, srcK %u, oriSrcK %u: srcK must be a non-zero whole number of 32-byte "
                         "blocks and oriSrcK at most srcK", op, s.srcM, s.srcK, s.oriSrcK));
    }
    const uint64_t need = softmax_tmp_bytes(s.srcK, sizeof(T));
    check_tmp(tmp, need, op, loc);
    const uint64_t count = uint64_t(s.srcM) * s.srcK;
    const uint32_t per_block = 32 / sizeof(S);
    check_count(dst, count, op, "dst", loc);
    check_count(src, count, op, "src", loc);
    check_count(sum, uint64_t(s.srcM) * per_block, op, "inSumTensor", loc);
    check_count(max, uint64_t(s.srcM) * per_block, op, "inMaxTensor", loc);
    count_vec_of<T>(op, int64_t(count));
    for (uint32_t r = 0; r < s.srcM; ++r) {
        const T* x = src.ptr_ + uint64_t(r) * s.srcK;
        check_read(x, uint64_t(s.oriSrcK) * sizeof(T), op, "src", loc);
        check_read(sum.ptr_ + uint64_t(r) * per_block, sizeof(S), op, "inSumTensor", loc);
        check_read(max.ptr_ + uint64_t(r) * per_block, sizeof(S), op, "inMaxTensor", loc);
        const double total = widen(sum.ptr_[uint64_t(r) * per_block]);
        const double m = widen(max.ptr_[uint64_t(r) * per_block]);
        T* y = dst.ptr_ + uint64_t(r) * s.srcK;
        for (uint32_t k = 0; k < s.oriSrcK; ++k) y[k] = round_to<T>(std::exp(widen(x[k]) - m) / total);
        mark_written(y, uint64_t(s.oriSrcK) * sizeof(T));
    }
}

}  // namespace opkg_sim

namespace AscendC {

#if defined(__CCE_AICORE__) && __CCE_AICORE__ >= 200
#define OPKG_HL_SSM_TPL (template <typename T, bool isReuseSource = false, bool isBasicBlock = false, \
                         bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>)
OPKG_HL_API(OPKG_HL_SSM_TPL, SimpleSoftMax, (const LocalTensor<T>& inSumTensor, const LocalTensor<T>& inMaxTensor,
            const LocalTensor<T>& src, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}),
            (opkg_sim::nd_only<isDataFormatNZ>(),
             opkg_sim::run_simple_softmax<T, T>(dst, inSumTensor, inMaxTensor, src, nullptr, tiling, softmaxShapeInfo,
                                                loc)))
OPKG_HL_API(OPKG_HL_SSM_TPL, SimpleSoftMax, (const LocalTensor<T>& inSumTensor, const LocalTensor<T>& inMaxTensor,
            const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
            const SoftMaxShapeInfo& softmaxShapeInfo = {}),
            (opkg_sim::nd_only<isDataFormatNZ>(),
             opkg_sim::run_simple_softmax<T, T>(dst, inSumTensor, inMaxTensor, src, &sharedTmpBuffer, tiling,
                                                softmaxShapeInfo, loc)))
#undef OPKG_HL_SSM_TPL
#endif

#if defined(__CCE_AICORE__) && (__CCE_AICORE__ == 200 || __CCE_AICORE__ == 220)
#define OPKG_HL_SM_TPL (template <typename T, bool isReuseSource = false, bool isBasicBlock = false, \
                        const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>)
#define OPKG_HL_SM_TPL_NZ (template <typename T, bool isReuseSource = false, bool isBasicBlock = false, \
                           bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>)
OPKG_HL_API(OPKG_HL_SM_TPL, SoftMax, (const LocalTensor<T>& src, const SoftMaxTiling& tiling,
            const SoftMaxShapeInfo& softmaxShapeInfo = {}),
            (opkg_sim::run_softmax<T, T>(dst, nullptr, nullptr, src, nullptr, tiling, softmaxShapeInfo, loc)))
OPKG_HL_API(OPKG_HL_SM_TPL, SoftMax, (const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
            const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}),
            (opkg_sim::run_softmax<T, T>(dst, nullptr, nullptr, src, &sharedTmpBuffer, tiling, softmaxShapeInfo, loc)))
OPKG_HL_API(OPKG_HL_SM_TPL_NZ, SoftMax, (const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
            const LocalTensor<T>& src, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}),
            (opkg_sim::nd_only<isDataFormatNZ>(),
             opkg_sim::run_softmax<T, T>(dst, &sumTensor, &maxTensor, src, nullptr, tiling, softmaxShapeInfo, loc)))
OPKG_HL_API(OPKG_HL_SM_TPL_NZ, SoftMax, (const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
            const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
            const SoftMaxShapeInfo& softmaxShapeInfo = {}),
            (opkg_sim::nd_only<isDataFormatNZ>(),
             opkg_sim::run_softmax<T, T>(dst, &sumTensor, &maxTensor, src, &sharedTmpBuffer, tiling, softmaxShapeInfo,
                                         loc)))
#undef OPKG_HL_SM_TPL
#undef OPKG_HL_SM_TPL_NZ
#endif

}  // namespace AscendC
#endif
