// The rest of CANN's SoftMax family on the ND layout (hl_softmax.h has SoftMax and SimpleSoftMax):
// SoftmaxFlashV2 (the flash-attention update), SoftmaxGrad / SoftmaxGradFront, LogSoftMax and
// AdjustSoftMaxRes, with CANN 8.1's overloads. Row statistics (sum, max, expMax, the grad's
// row sums) hold one 32-byte block per row, the value repeated, as for SoftMax. Computed exactly
// (double) from the inputs and rounded once per output (docs/api.md).
#ifndef OPKG_SIM_HL_SOFTMAX_MORE_H
#define OPKG_SIM_HL_SOFTMAX_MORE_H

#include "opkg_sim/adv_api/activation/hl_softmax.h"
#include "lib/activation/logsoftmax_tilingdata.h"

namespace AscendC {
using LogSoftMaxTiling = optiling::LogSoftMaxTiling;
}

namespace opkg_sim {

// The shape of a call (shape info, else the tiling's), checked as SoftMax checks it.
template <class T, class Tiling>
inline AscendC::SoftMaxShapeInfo checked_shape(const Tiling& tiling, const AscendC::SoftMaxShapeInfo& info,
                                               const char* op, SrcLoc loc) {
    AscendC::SoftMaxShapeInfo s = info;
    if (!s.srcM || !s.srcK) {
        s.srcM = OPKG_TF(tiling, srcM);
        s.srcK = OPKG_TF(tiling, srcK);
    }
    if (!s.oriSrcM) s.oriSrcM = s.srcM;
    if (!s.oriSrcK) s.oriSrcK = s.srcK;
    if (!s.srcM || !s.srcK || (uint64_t(s.srcK) * sizeof(T)) % 32 || s.oriSrcK > s.srcK) {
        fail(loc, format("%s: shape srcM %u, srcK %u, oriSrcK %u: srcK must be a non-zero whole number of 32-byte "
                         "blocks of %s and oriSrcK at most srcK (pass a SoftMaxShapeInfo or a tiling)", op, s.srcM,
                         s.srcK, s.oriSrcK, type_name<T>()));
    }
    return s;
}

// Per-row statistics: one 32-byte block of S per row.
template <class S> struct RowStat {
    const AscendC::LocalTensor<S>* t;
    uint32_t per = 32 / sizeof(S);
    void check(uint32_t rows, const char* op, const char* role, SrcLoc loc) const {
        if (t) check_count(*t, uint64_t(rows) * per, op, role, loc);
    }
    double read(uint32_t r, const char* op, const char* role, SrcLoc loc) const {
        check_read(t->ptr_ + uint64_t(r) * per, sizeof(S), op, role, loc);
        return widen(t->ptr_[uint64_t(r) * per]);
    }
    void write(uint32_t r, double v) const {
        for (uint32_t b = 0; b < per; ++b) t->ptr_[uint64_t(r) * per + b] = round_to<S>(v);
    }
    void done(uint32_t rows) const {
        if (t) mark_written(t->ptr_, uint64_t(rows) * per * sizeof(S));
    }
};

// SoftmaxFlashV2: without update, dst = exp(x - max), expSum = sum(dst) exactly, max = row max;
// with update, max' = max(inMax, row max), expMax = exp(inMax - max'), dst = exp(x - max'),
// expSum = expMax * inExpSum + sum(exp(x - max')).
// SoftmaxFlash (v1, `normalized`; the devkit documents its formula as a NumPy script): the same
// max' and expSum, and dst = exp(x - max') / expSum; with update expMax = exp(inMax - max') *
// inSum / expSum. The statistics are read before any is written (sum may be inSum, max inMax).
template <class T, class S, bool normalized>
inline void softmax_flash(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<S>& exp_sum,
                          const AscendC::LocalTensor<S>& max_t, const AscendC::LocalTensor<T>& src,
                          const AscendC::LocalTensor<T>& exp_max, const AscendC::LocalTensor<S>& in_sum,
                          const AscendC::LocalTensor<S>& in_max, const AscendC::LocalTensor<uint8_t>* tmp,
                          const AscendC::SoftMaxTiling& tiling, const AscendC::SoftMaxShapeInfo& info, bool update,
                          SrcLoc loc) {
    static_assert(is_half_or_float<T>::value && is_half_or_float<S>::value, "SoftmaxFlash takes half or float");
    const char* op = normalized ? "SoftmaxFlash" : "SoftmaxFlashV2";
    note(loc);
    const AscendC::SoftMaxShapeInfo s = checked_shape<T>(tiling, tensor_shape(info, src), op, loc);
    check_tmp(tmp, softmax_tmp_bytes(s.srcK, sizeof(T)), op, loc);
    const uint64_t count = uint64_t(s.srcM) * s.srcK;
    check_count(dst, count, op, "dst", loc);
    check_count(src, count, op, "src", loc);
    RowStat<S> sum{&exp_sum}, mx{&max_t}, isum{&in_sum}, imx{&in_max};
    RowStat<T> emx{&exp_max};
    sum.check(s.srcM, op, normalized ? "sumTensor" : "expSumTensor", loc);
    mx.check(s.srcM, op, "maxTensor", loc);
    const char* in_sum_role = normalized ? "inSumTensor" : "inExpSumTensor";
    if (update) {
        isum.check(s.srcM, op, in_sum_role, loc);
        imx.check(s.srcM, op, "inMaxTensor", loc);
        emx.check(s.srcM, op, "expMaxTensor", loc);
    }
    count_vec_of<T>(op, int64_t(count));
    std::vector<double> sums(s.srcM), maxes(s.srcM), emaxes(s.srcM), e(s.oriSrcK);
    for (uint32_t r = 0; r < s.srcM; ++r) {
        const double old_max = update ? imx.read(r, op, "inMaxTensor", loc) : -INFINITY;
        const double old_sum = update ? isum.read(r, op, in_sum_role, loc) : 0.0;
        const T* x = src.ptr_ + uint64_t(r) * s.srcK;
        check_read(x, uint64_t(s.oriSrcK) * sizeof(T), op, "src", loc);
        double m = -INFINITY;
        for (uint32_t k = 0; k < s.oriSrcK; ++k) m = std::fmax(m, widen(x[k]));
        if (update) m = std::fmax(m, old_max);
        double total = 0.0;
        for (uint32_t k = 0; k < s.oriSrcK; ++k) total += (e[k] = std::exp(widen(x[k]) - m));
        const double em = update ? std::exp(old_max - m) : 1.0;
        sums[r] = update ? em * old_sum + total : total;
        maxes[r] = m;
        emaxes[r] = normalized ? em * old_sum / sums[r] : em;
        T* y = dst.ptr_ + uint64_t(r) * s.srcK;
        for (uint32_t k = 0; k < s.oriSrcK; ++k) y[k] = round_to<T>(normalized ? e[k] / sums[r] : e[k]);
        mark_written(y, uint64_t(s.oriSrcK) * sizeof(T));
    }
    for (uint32_t r = 0; r < s.srcM; ++r) {
        sum.write(r, sums[r]);
        mx.write(r, maxes[r]);
        if (update) emx.write(r, emaxes[r]);
    }
    sum.done(s.srcM);
    mx.done(s.srcM);
    if (update) emx.done(s.srcM);
}

// SoftmaxFlashV3 (CANN 8.1's v220 kernel, softmax_flashv3_impl.h; half data, float statistics): each
// row of oriSrcK is split into splitMeanCnt groups of baseK; with g_j a group's mean, gm their
// mean and s = alpha / (1 - alpha), the row is shifted per group, x' = x - (gm - g_j) * s. Without
// update: mean = gm, max = max(x'), dst = exp(x' - max), expSum = sum(dst). With update (loopCnt
// the step's number): mean = (inMean * (loopCnt - 1) + gm) / loopCnt, shiftCurr = (gm - mean) * s,
// shiftPrev = (inMean - mean) * s, max = max(max(x') + shiftCurr, inMax + shiftPrev),
// expMax = exp(inMax + shiftPrev - max), dst = exp(x' + shiftCurr - max), expSum = expMax *
// inExpSum + sum(dst). Each value exact, rounded once; statistics one 32-byte block per row.
struct SoftMaxParams;
template <bool update, class P>
inline void softmax_flash_v3(const AscendC::LocalTensor<half>& dst, const AscendC::LocalTensor<float>& mean_t,
                             const AscendC::LocalTensor<float>& exp_sum, const AscendC::LocalTensor<float>& max_t,
                             const AscendC::LocalTensor<half>& src, const AscendC::LocalTensor<half>& exp_max,
                             const AscendC::LocalTensor<float>& in_mean, const AscendC::LocalTensor<float>& in_sum,
                             const AscendC::LocalTensor<float>& in_max, const AscendC::LocalTensor<uint8_t>* tmp,
                             const AscendC::SoftMaxTiling& tiling, const P& p, SrcLoc loc) {
    const char* op = "SoftmaxFlashV3";
    note(loc);
    AscendC::SoftMaxShapeInfo info{p.srcM, p.srcK, p.oriSrcM, p.oriSrcK};
    const AscendC::SoftMaxShapeInfo s = checked_shape<half>(tiling, info, op, loc);
    if (s.srcK < 512) {
        fail(loc, format("%s: srcK %u: CANN's kernel needs rows of at least 512 elements (it asserts srcK >= 512)", op,
                         s.srcK));
    }
    if (p.splitMeanCnt != 8 || s.oriSrcK % 8 || !p.loopCnt || !(p.alpha < 1.0f)) {
        fail(loc, format("%s: SoftMaxParams {loopCnt %u, splitMeanCnt %u, alpha %g} with oriSrcK %u: the kernel takes "
                         "splitMeanCnt 8 (its group means are one 8-float block per row) with oriSrcK a multiple of "
                         "8, loopCnt from 1 and alpha below 1", op, p.loopCnt, p.splitMeanCnt, double(p.alpha),
                         s.oriSrcK));
    }
    check_tmp(tmp, softmax_tmp_bytes(s.srcK, 2), op, loc);
    const uint64_t count = uint64_t(s.srcM) * s.srcK;
    check_count(dst, count, op, "dstTensor", loc);
    check_count(src, count, op, "srcTensor", loc);
    RowStat<float> mn{&mean_t}, sum{&exp_sum}, mx{&max_t}, imn{&in_mean}, isum{&in_sum}, imx{&in_max};
    RowStat<half> emx{&exp_max};
    mn.check(s.srcM, op, "meanTensor", loc);
    sum.check(s.srcM, op, "expSumTensor", loc);
    mx.check(s.srcM, op, "maxTensor", loc);
    if (update) {
        imn.check(s.srcM, op, "inMeanTensor", loc);
        isum.check(s.srcM, op, "inExpSumTensor", loc);
        imx.check(s.srcM, op, "inMaxTensor", loc);
        emx.check(s.srcM, op, "expMaxTensor", loc);
    }
    count_vec_of<float>(op, int64_t(count) * 4);
    const double sh = double(p.alpha) / (1.0 - double(p.alpha));
    const uint32_t base = s.oriSrcK / 8;
    std::vector<double> means(s.srcM), sums(s.srcM), maxes(s.srcM), emaxes(s.srcM), xs(s.oriSrcK);
    for (uint32_t r = 0; r < s.srcM; ++r) {
        const half* x = src.ptr_ + uint64_t(r) * s.srcK;
        check_read(x, uint64_t(s.oriSrcK) * 2, op, "srcTensor", loc);
        double g[8], gm = 0.0;
        for (uint32_t j = 0; j < 8; ++j) {
            g[j] = 0.0;
            for (uint32_t k = j * base; k < (j + 1) * base; ++k) g[j] += widen(x[k]);
            g[j] /= base;
            gm += g[j] / 8;
        }
        double rmax = -INFINITY;
        for (uint32_t k = 0; k < s.oriSrcK; ++k) {
            xs[k] = widen(x[k]) - (gm - g[k / base]) * sh;
            rmax = std::fmax(rmax, xs[k]);
        }
        double mean = gm, m = rmax, shift = 0.0, em = 1.0, old_sum = 0.0;
        if (update) {
            const double in_m = imn.read(r, op, "inMeanTensor", loc), in_x = imx.read(r, op, "inMaxTensor", loc);
            old_sum = isum.read(r, op, "inExpSumTensor", loc);
            mean = (in_m * (double(p.loopCnt) - 1.0) + gm) / double(p.loopCnt);
            shift = (gm - mean) * sh;
            const double prev = (in_m - mean) * sh;
            m = std::fmax(rmax + shift, in_x + prev);
            em = std::exp(in_x + prev - m);
        }
        double total = 0.0;
        half* y = dst.ptr_ + uint64_t(r) * s.srcK;
        for (uint32_t k = 0; k < s.oriSrcK; ++k) {
            const double e = std::exp(xs[k] + shift - m);
            total += e;
            y[k] = round_to<half>(e);
        }
        mark_written(y, uint64_t(s.oriSrcK) * 2);
        means[r] = mean;
        maxes[r] = m;
        sums[r] = update ? em * old_sum + total : total;
        emaxes[r] = em;
    }
    for (uint32_t r = 0; r < s.srcM; ++r) {
        mn.write(r, means[r]);
        sum.write(r, sums[r]);
        mx.write(r, maxes[r]);
        if (update) emx.write(r, emaxes[r]);
    }
    mn.done(s.srcM);
    sum.done(s.srcM);
    mx.done(s.srcM);
    if (update) emx.done(s.srcM);
}

// SoftmaxGrad: with y = src (a softmax output) and dy = grad, front = sum(dy * y) per row;
// isFront writes front (one block per row), else dst = (dy - front) * y.
template <class T>
inline void softmax_grad(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& grad,
                         const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>* tmp,
                         const AscendC::SoftMaxTiling& tiling, bool front, const AscendC::SoftMaxShapeInfo& info,
                         const char* op, SrcLoc loc) {
    static_assert(is_half_or_float<T>::value, "SoftmaxGrad takes half or float");
    note(loc);
    const AscendC::SoftMaxShapeInfo s = checked_shape<T>(tiling, info, op, loc);
    check_tmp(tmp, softmax_tmp_bytes(s.srcK, sizeof(T)), op, loc);
    const uint64_t count = uint64_t(s.srcM) * s.srcK;
    check_count(grad, count, op, "gradTensor", loc);
    check_count(src, count, op, "srcTensor", loc);
    RowStat<T> out{&dst};
    if (front) out.check(s.srcM, op, "dstTensor", loc);
    else check_count(dst, count, op, "dstTensor", loc);
    count_vec_of<T>(op, int64_t(count));
    std::vector<double> fronts(s.srcM);
    for (uint32_t r = 0; r < s.srcM; ++r) {
        const T* dy = grad.ptr_ + uint64_t(r) * s.srcK;
        const T* y = src.ptr_ + uint64_t(r) * s.srcK;
        check_read(dy, uint64_t(s.oriSrcK) * sizeof(T), op, "gradTensor", loc);
        check_read(y, uint64_t(s.oriSrcK) * sizeof(T), op, "srcTensor", loc);
        double f = 0.0;
        for (uint32_t k = 0; k < s.oriSrcK; ++k) f += widen(dy[k]) * widen(y[k]);
        fronts[r] = f;
        if (!front) {
            T* d = dst.ptr_ + uint64_t(r) * s.srcK;
            for (uint32_t k = 0; k < s.oriSrcK; ++k) d[k] = round_to<T>((widen(dy[k]) - f) * widen(y[k]));
            mark_written(d, uint64_t(s.oriSrcK) * sizeof(T));
        }
    }
    if (front) {
        for (uint32_t r = 0; r < s.srcM; ++r) out.write(r, fronts[r]);
        out.done(s.srcM);
    }
}

// LogSoftMax: dst = x - max - log(sum(exp(x - max))); sum and max per row.
template <class T>
inline void log_softmax(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& sum_t,
                        const AscendC::LocalTensor<T>& max_t, const AscendC::LocalTensor<T>& src,
                        const AscendC::LocalTensor<uint8_t>& tmp, const AscendC::LogSoftMaxTiling& tiling,
                        const AscendC::SoftMaxShapeInfo& info, SrcLoc loc) {
    static_assert(is_half_or_float<T>::value, "LogSoftMax takes half or float");
    const char* op = "LogSoftMax";
    note(loc);
    const AscendC::SoftMaxShapeInfo s = checked_shape<T>(tiling, info, op, loc);
    check_tmp(&tmp, softmax_tmp_bytes(s.srcK, sizeof(T)), op, loc);
    const uint64_t count = uint64_t(s.srcM) * s.srcK;
    check_count(dst, count, op, "dst", loc);
    check_count(src, count, op, "src", loc);
    RowStat<T> sum{&sum_t}, mx{&max_t};
    sum.check(s.srcM, op, "sumTensor", loc);
    mx.check(s.srcM, op, "maxTensor", loc);
    count_vec_of<T>(op, int64_t(count));
    std::vector<double> sums(s.srcM), maxes(s.srcM);
    for (uint32_t r = 0; r < s.srcM; ++r) {
        const T* x = src.ptr_ + uint64_t(r) * s.srcK;
        check_read(x, uint64_t(s.oriSrcK) * sizeof(T), op, "src", loc);
        double m = -INFINITY;
        for (uint32_t k = 0; k < s.oriSrcK; ++k) m = std::fmax(m, widen(x[k]));
        double total = 0.0;
        for (uint32_t k = 0; k < s.oriSrcK; ++k) total += std::exp(widen(x[k]) - m);
        T* y = dst.ptr_ + uint64_t(r) * s.srcK;
        for (uint32_t k = 0; k < s.oriSrcK; ++k) y[k] = round_to<T>(widen(x[k]) - m - std::log(total));
        mark_written(y, uint64_t(s.oriSrcK) * sizeof(T));
        sums[r] = total;
        maxes[r] = m;
    }
    for (uint32_t r = 0; r < s.srcM; ++r) {
        sum.write(r, sums[r]);
        mx.write(r, maxes[r]);
    }
    sum.done(s.srcM);
    mx.done(s.srcM);
}

}  // namespace opkg_sim

namespace AscendC {

#define OPKG_HL_LOC opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()
#define OPKG_HL_FV2_TPL template <typename T, bool isUpdate = false, bool isReuseSource = false, \
    bool isBasicBlock = false, bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>

OPKG_HL_FV2_TPL inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor,
    const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
    const LocalTensor<T>& inExpSumTensor, const LocalTensor<T>& inMaxTensor, const SoftMaxTiling& tiling,
    const SoftMaxShapeInfo& softmaxShapeInfo = {}, OPKG_HL_LOC) {
    opkg_sim::nd_only<isDataFormatNZ>();
    opkg_sim::softmax_flash<T, T, false>(dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor,
                                               inExpSumTensor, inMaxTensor, nullptr, tiling, softmaxShapeInfo, isUpdate, loc);
}
OPKG_HL_FV2_TPL inline void SoftmaxFlashV2(const LocalTensor<half>& dstTensor, const LocalTensor<float>& expSumTensor,
    const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor, const LocalTensor<half>& expMaxTensor,
    const LocalTensor<float>& inExpSumTensor, const LocalTensor<float>& inMaxTensor, const SoftMaxTiling& tiling,
    const SoftMaxShapeInfo& softmaxShapeInfo = {}, OPKG_HL_LOC) {
    opkg_sim::nd_only<isDataFormatNZ>();
    opkg_sim::softmax_flash<half, float, false>(dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor,
                                                      inExpSumTensor, inMaxTensor, nullptr, tiling, softmaxShapeInfo,
                                                      isUpdate, loc);
}
OPKG_HL_FV2_TPL inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor,
    const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
    const LocalTensor<T>& inExpSumTensor, const LocalTensor<T>& inMaxTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
    const SoftMaxShapeInfo& softmaxShapeInfo = {}, OPKG_HL_LOC) {
    opkg_sim::nd_only<isDataFormatNZ>();
    opkg_sim::softmax_flash<T, T, false>(dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor,
                                               inExpSumTensor, inMaxTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo,
                                               isUpdate, loc);
}
OPKG_HL_FV2_TPL inline void SoftmaxFlashV2(const LocalTensor<half>& dstTensor, const LocalTensor<float>& expSumTensor,
    const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor, const LocalTensor<half>& expMaxTensor,
    const LocalTensor<float>& inExpSumTensor, const LocalTensor<float>& inMaxTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
    const SoftMaxShapeInfo& softmaxShapeInfo = {}, OPKG_HL_LOC) {
    opkg_sim::nd_only<isDataFormatNZ>();
    opkg_sim::softmax_flash<half, float, false>(dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor,
                                                      inExpSumTensor, inMaxTensor, &sharedTmpBuffer, tiling,
                                                      softmaxShapeInfo, isUpdate, loc);
}
#undef OPKG_HL_FV2_TPL

// SoftmaxFlash (v1, CANN 8.1's lib/activation/softmaxflash.h; deprecated for SoftmaxFlashV2):
// isUpdate is an argument here, not a template parameter.
#define OPKG_HL_FV1_TPL template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
OPKG_HL_FV1_TPL inline void SoftmaxFlash(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
    const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
    const LocalTensor<T>& inSumTensor, const LocalTensor<T>& inMaxTensor, const SoftMaxTiling& tiling,
    bool isUpdate = false, const SoftMaxShapeInfo& softmaxShapeInfo = {}, OPKG_HL_LOC) {
    opkg_sim::softmax_flash<T, T, true>(dstTensor, sumTensor, maxTensor, srcTensor, expMaxTensor, inSumTensor,
                                        inMaxTensor, nullptr, tiling, softmaxShapeInfo, isUpdate, loc);
}
OPKG_HL_FV1_TPL inline void SoftmaxFlash(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
    const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor, const LocalTensor<half>& expMaxTensor,
    const LocalTensor<float>& inSumTensor, const LocalTensor<float>& inMaxTensor, const SoftMaxTiling& tiling,
    bool isUpdate = false, const SoftMaxShapeInfo& softmaxShapeInfo = {}, OPKG_HL_LOC) {
    opkg_sim::softmax_flash<half, float, true>(dstTensor, sumTensor, maxTensor, srcTensor, expMaxTensor,
                                               inSumTensor, inMaxTensor, nullptr, tiling, softmaxShapeInfo, isUpdate,
                                               loc);
}
OPKG_HL_FV1_TPL inline void SoftmaxFlash(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
    const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
    const LocalTensor<T>& inSumTensor, const LocalTensor<T>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
    const SoftMaxTiling& tiling, bool isUpdate = false, const SoftMaxShapeInfo& softmaxShapeInfo = {}, OPKG_HL_LOC) {
    opkg_sim::softmax_flash<T, T, true>(dstTensor, sumTensor, maxTensor, srcTensor, expMaxTensor, inSumTensor,
                                        inMaxTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo, isUpdate, loc);
}
OPKG_HL_FV1_TPL inline void SoftmaxFlash(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
    const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor, const LocalTensor<half>& expMaxTensor,
    const LocalTensor<float>& inSumTensor, const LocalTensor<float>& inMaxTensor,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling, bool isUpdate = false,
    const SoftMaxShapeInfo& softmaxShapeInfo = {}, OPKG_HL_LOC) {
    opkg_sim::softmax_flash<half, float, true>(dstTensor, sumTensor, maxTensor, srcTensor, expMaxTensor,
                                               inSumTensor, inMaxTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo,
                                               isUpdate, loc);
}
#undef OPKG_HL_FV1_TPL

// CANN 8.1's SoftMaxParams (impl/activation/softmax/softmax_common/softmax_common_utils.h).
struct SoftMaxParams {
    uint32_t srcM{0};
    uint32_t srcK{0};
    uint32_t oriSrcM{0};
    uint32_t oriSrcK{0};
    uint32_t loopCnt{1};
    uint32_t splitMeanCnt{8};
    float alpha{0.9375};
};

#define OPKG_HL_FV3_TPL template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false, \
    bool isBasicBlock = false, bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
OPKG_HL_FV3_TPL inline void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor,
    const LocalTensor<U>& expSumTensor, const LocalTensor<U>& maxTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<T>& expMaxTensor, const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
    const LocalTensor<U>& inMaxTensor, const SoftMaxTiling& tiling, const SoftMaxParams& params, OPKG_HL_LOC) {
    static_assert(std::is_same<T, half>::value && std::is_same<U, float>::value,
                  "SoftmaxFlashV3 takes half data and float statistics (CANN 8.1's kernel)");
    opkg_sim::nd_only<isDataFormatNZ>();
    opkg_sim::softmax_flash_v3<isUpdate>(dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor,
                                         inMeanTensor, inExpSumTensor, inMaxTensor, nullptr, tiling, params, loc);
}
OPKG_HL_FV3_TPL inline void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor,
    const LocalTensor<U>& expSumTensor, const LocalTensor<U>& maxTensor, const LocalTensor<T>& srcTensor,
    const LocalTensor<T>& expMaxTensor, const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
    const LocalTensor<U>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
    const SoftMaxParams& params, OPKG_HL_LOC) {
    static_assert(std::is_same<T, half>::value && std::is_same<U, float>::value,
                  "SoftmaxFlashV3 takes half data and float statistics (CANN 8.1's kernel)");
    opkg_sim::nd_only<isDataFormatNZ>();
    opkg_sim::softmax_flash_v3<isUpdate>(dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor,
                                         inMeanTensor, inExpSumTensor, inMaxTensor, &sharedTmpBuffer, tiling, params,
                                         loc);
}
#undef OPKG_HL_FV3_TPL

#ifdef OPKG_SIM_KERNEL
// CANN's kernel-side tiling of SoftmaxFlashV2 for an srcM x srcK shape (kernels that retile per
// block call it): the fields the host's SoftMaxFlashV2TilingFunc gives (hl_tiling.h), which are
// all the sim reads; the flags change no value the sim computes.
inline SoftMaxTiling SoftMaxFlashV2TilingFuncImpl(const uint32_t srcM, const uint32_t srcK,
    const uint32_t dataTypeSize1, const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
    const bool isUpdate = false, const bool isBasicBlock = false, const bool isDataFormatNZ = false,
    const bool isFlashOutputBrc = false) {
    (void)dataTypeSize2, (void)localWorkSpaceSize, (void)isUpdate, (void)isBasicBlock, (void)isDataFormatNZ,
        (void)isFlashOutputBrc;
    const uint32_t perBlock = dataTypeSize1 ? 32 / dataTypeSize1 : 8;
    SoftMaxTiling t{};
    t.srcM = srcM;
    t.srcK = srcK;
    t.srcSize = srcM * srcK;
    t.outMaxM = srcM;
    t.outMaxK = perBlock;
    t.outMaxSize = srcM * perBlock;
    t.splitM = srcM;
    t.splitK = srcK;
    t.splitSize = srcM * srcK;
    t.reduceM = srcM;
    t.reduceK = perBlock;
    t.reduceSize = srcM * perBlock;
    t.rangeM = 1;
    return t;
}
#endif

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                        const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling, bool isFront = false,
                        const SoftMaxShapeInfo& softmaxShapeInfo = {}, OPKG_HL_LOC) {
    opkg_sim::nd_only<isDataFormatNZ>();
    opkg_sim::softmax_grad(dstTensor, gradTensor, srcTensor, nullptr, tiling, isFront, softmaxShapeInfo, "SoftmaxGrad",
                           loc);
}
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                        const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                        const SoftMaxTiling& tiling, bool isFront = false,
                        const SoftMaxShapeInfo& softmaxShapeInfo = {}, OPKG_HL_LOC) {
    opkg_sim::nd_only<isDataFormatNZ>();
    opkg_sim::softmax_grad(dstTensor, gradTensor, srcTensor, &sharedTmpBuffer, tiling, isFront, softmaxShapeInfo,
                           "SoftmaxGrad", loc);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                             const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                             const SoftMaxShapeInfo& softmaxShapeInfo = {}, OPKG_HL_LOC) {
    opkg_sim::nd_only<isDataFormatNZ>();
    opkg_sim::softmax_grad(dstTensor, gradTensor, srcTensor, nullptr, tiling, true, softmaxShapeInfo,
                           "SoftmaxGradFront", loc);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                             const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                             const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}, OPKG_HL_LOC) {
    opkg_sim::nd_only<isDataFormatNZ>();
    opkg_sim::softmax_grad(dstTensor, gradTensor, srcTensor, &sharedTmpBuffer, tiling, true, softmaxShapeInfo,
                           "SoftmaxGradFront", loc);
}

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void LogSoftMax(LocalTensor<T>& dst, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                       const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
                       const LogSoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}, OPKG_HL_LOC) {
    opkg_sim::nd_only<isDataFormatNZ>();
    opkg_sim::log_softmax(dst, sumTensor, maxTensor, src, sharedTmpBuffer, tiling, softmaxShapeInfo, loc);
}

// Rows whose max (the raw bits of the row's first statistic: every block, or every element with
// stepSizeMode 1) equal `from` get their srcK elements set to `to`; true if any row did.
template <typename T1, typename T2, bool isDataFormatNZ = false, uint8_t stepSizeMode = 0>
inline bool AdjustSoftMaxRes(const LocalTensor<T1>& softMaxRes, const LocalTensor<T2>& maxTensor, const uint32_t from,
                             const T1 to, const SoftMaxShapeInfo& softmaxShapeInfo, OPKG_HL_LOC) {
    opkg_sim::nd_only<isDataFormatNZ>();
    static_assert(opkg_sim::is_half_or_float<T1>::value && opkg_sim::is_half_or_float<T2>::value,
                  "AdjustSoftMaxRes takes half or float");
    const char* op = "AdjustSoftMaxRes";
    const uint32_t M = softmaxShapeInfo.srcM, K = softmaxShapeInfo.srcK;
    if (!M || !K) opkg_sim::fail(loc, opkg_sim::format("%s: softmaxShapeInfo srcM %u, srcK %u must be non-zero", op, M, K));
    const uint32_t step = stepSizeMode ? 1 : 32 / sizeof(T2);
    opkg_sim::check_count(maxTensor, uint64_t(M - 1) * step + 1, op, "maxTensor", loc);
    opkg_sim::check_count(softMaxRes, uint64_t(M) * K, op, "softMaxRes", loc);
    bool any = false;
    for (uint32_t j = 0; j < M; ++j) {
        const T2* p = maxTensor.ptr_ + uint64_t(j) * step;
        opkg_sim::check_use(p, sizeof(T2), op, "maxTensor", loc, opkg_sim::Pipe::S);   // read by scalar code
        uint32_t bits = 0;
        std::memcpy(&bits, p, sizeof(T2));
        if (bits != (sizeof(T2) == 2 ? (from & 0xFFFFu) : from)) continue;
        for (uint32_t k = 0; k < K; ++k) softMaxRes.ptr_[uint64_t(j) * K + k] = to;
        opkg_sim::mark_written(softMaxRes.ptr_ + uint64_t(j) * K, uint64_t(K) * sizeof(T1));
        any = true;
    }
    return any;
}
#undef OPKG_HL_LOC

}  // namespace AscendC
#endif
