// The high-level reduce and select libraries (CANN lib/reduce, lib/select): Sum and Mean over the
// last axis of an [outter, inner] tensor, and SelectWithBytesMask. Sums follow the vector unit's
// order (a pairwise tree per 256-byte repeat, then over the repeat results) with rounding in the
// accumulation type, as the sim's ReduceSum does; docs/api.md has the model.
#ifndef OPKG_SIM_HL_REDUCE_H
#define OPKG_SIM_HL_REDUCE_H

#include "opkg_sim/adv_api/hlapi.h"
#include "opkg_sim/adv_api/hl_rules.h"

namespace AscendC {

struct SumParams {
    uint32_t outter = 1;
    uint32_t inner;   // n rounded up to 32 bytes of T
    uint32_t n;       // valid elements per row
};

struct MeanParams {
    uint32_t outter = 1;
    uint32_t inner;
    uint32_t n;
};

struct SelectWithBytesMaskShapeInfo {
    SelectWithBytesMaskShapeInfo() {}
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};

}  // namespace AscendC

namespace opkg_sim {

template <class T, class P>
inline void check_rows(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, const P& p,
                       const char* op, SrcLoc loc) {
    static_assert(is_half_or_float<T>::value, "Sum and Mean support half and float");
    note(loc);
    if (p.inner == 0 || (uint64_t(p.inner) * sizeof(T)) % 32 != 0) {
        fail(loc, format("%s: inner %u is not a whole number of 32-byte blocks of %s (inner = n rounded up to 32 "
                         "bytes)", op, p.inner, type_name<T>()));
    }
    if (p.n < 1 || p.n > p.inner) fail(loc, format("%s: n %u outside [1, inner %u]", op, p.n, p.inner));
    if (p.outter == 0) fail(loc, format("%s: outter is 0", op));
    const uint64_t dst_need = (uint64_t(p.outter) * sizeof(T) + 31) / 32 * 32;
    if (uint64_t(dst.size_) * sizeof(T) < dst_need) {
        past_tensor(dst.ptr_, dst_need, uint64_t(dst.size_) * sizeof(T),
                    format("%s: dst holds %u elements but outter %u needs %llu bytes (outter rounded up to 32 bytes)",
                           op, dst.size_, p.outter, (unsigned long long)dst_need), loc);
    }
    check_count(src, uint64_t(p.outter) * p.inner, op, "src", loc);
    check_ub(dst, dst_need, op, "dst", loc);
}

// Row sums (n valid elements per row) in the accumulation type A, then f(sum) rounded to T.
template <class T, class A, class F>
inline void reduce_rows(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, uint32_t outter,
                        uint32_t inner, uint32_t n, F f, const char* op, SrcLoc loc) {
    using C = calc_t<A>;
    std::vector<A> row(n);
    for (uint32_t r = 0; r < outter; ++r) {
        const T* p = src.ptr_ + uint64_t(r) * inner;
        check_read(p, uint64_t(n) * sizeof(T), op, "src", loc);
        for (uint32_t i = 0; i < n; ++i) row[i] = static_cast<A>(static_cast<float>(p[i]));
        A s = tree_reduce(row.data(), int64_t(n), [](C a, C b) { return a + b; });
        dst.ptr_[r] = static_cast<T>(static_cast<float>(f(s)));
    }
    mark_written(dst.ptr_, uint64_t(outter) * sizeof(T));
    count_vec_of<T>(op, int64_t(outter) * n);
}

template <class T>
inline void run_sum(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                    const AscendC::LocalTensor<uint8_t>* tmp, const AscendC::SumParams& p, SrcLoc loc) {
    check_rows(dst, src, p, "Sum", loc);
    const uint64_t need = sum_tmp_bytes(p.n, sizeof(T));
    check_tmp(tmp, need, "Sum", loc);
    reduce_rows<T, T>(dst, src, p.outter, p.inner, p.n, [](T s) { return s; }, "Sum", loc);
}

// Mean: the row sum times 1/n, both in accType (half, or float for half input).
template <class T, class A>
inline void run_mean(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                     const AscendC::LocalTensor<uint8_t>* tmp, const AscendC::MeanParams& p, SrcLoc loc) {
    static_assert(std::is_same<A, T>::value || (std::is_same<T, half>::value && std::is_same<A, float>::value),
                  "Mean: accType is T, or float for half input");
    check_rows(dst, src, p, "Mean", loc);
    const uint64_t need = mean_tmp_bytes(p.n, p.inner, sizeof(T), sizeof(A));
    check_tmp(tmp, need, "Mean", loc);
    using C = calc_t<A>;
    const A inv = static_cast<A>(1.0f / float(p.n));
    reduce_rows<T, A>(dst, src, p.outter, p.inner, p.n,
                      [inv](A s) { return static_cast<A>(static_cast<C>(s) * static_cast<C>(inv)); }, "Mean", loc);
}

// SelectWithBytesMask: element (i, j) of an [firstAxis, srcLastAxis] tensor is `zero` where
// mask[i][j] (rows maskLastAxis apart) is 0, else `nonzero`. With isReuseMask and a wider mask the
// kernel compacts the mask in place, as CANN's does; otherwise that copy needs tmp space.
template <class T, class U, bool reuse_mask, class Zero, class NonZero>
inline void run_select_bytes(const AscendC::LocalTensor<T>& dst, Zero zero, NonZero nonzero,
                             const AscendC::LocalTensor<U>& mask, const AscendC::LocalTensor<uint8_t>& tmp,
                             const AscendC::SelectWithBytesMaskShapeInfo& info, const AscendC::LocalTensor<T>& src,
                             SrcLoc loc) {
    static_assert(is_half_or_float<T>::value, "SelectWithBytesMask: T is half or float");
    static_assert(sizeof(U) <= 2 && !std::is_floating_point<U>::value, "SelectWithBytesMask: the mask is bool, int8/uint8 or int16/uint16");
    const char* op = "SelectWithBytesMask";
    note(loc);
    if (info.maskLastAxis < info.srcLastAxis) {
        fail(loc, format("%s: maskLastAxis %u is smaller than srcLastAxis %u", op, info.maskLastAxis, info.srcLastAxis));
    }
    if ((uint64_t(info.srcLastAxis) * sizeof(T)) % 32 || (uint64_t(info.maskLastAxis) * sizeof(U)) % 32) {
        fail(loc, format("%s: srcLastAxis (%u x %zu bytes) and maskLastAxis (%u x %zu bytes) must be whole 32-byte "
                         "blocks", op, info.srcLastAxis, sizeof(T), info.maskLastAxis, sizeof(U)));
    }
    const uint64_t count = uint64_t(info.firstAxis) * info.srcLastAxis;
    const bool compact = info.srcLastAxis != info.maskLastAxis;
    check_shared_tmp(tmp, select_bytes_tmp(count, sizeof(U), reuse_mask, compact), op, loc);
    check_count(dst, count, op, "dst", loc);
    check_count(src, count, op, "src", loc);
    check_count(mask, uint64_t(info.firstAxis) * info.maskLastAxis, op, "mask", loc);
    check_read(src.ptr_, count * sizeof(T), op, "src", loc);
    std::vector<uint8_t> take(count);
    for (uint32_t i = 0; i < info.firstAxis; ++i) {
        const U* row = mask.ptr_ + uint64_t(i) * info.maskLastAxis;
        check_read(row, uint64_t(info.srcLastAxis) * sizeof(U), op, "mask", loc);
        for (uint32_t j = 0; j < info.srcLastAxis; ++j) take[uint64_t(i) * info.srcLastAxis + j] = row[j] != U(0);
    }
    count_vec_of<T>(op, int64_t(count));
    for (uint64_t k = 0; k < count; ++k) dst.ptr_[k] = take[k] ? nonzero(k) : zero(k);
    mark_written(dst.ptr_, count * sizeof(T));
    if (reuse_mask && compact) {
        for (uint64_t k = 0; k < count; ++k) mask.ptr_[k] = U(take[k]);
        mark_written(mask.ptr_, count * sizeof(U));
    }
}

}  // namespace opkg_sim

namespace AscendC {

#if defined(__CCE_AICORE__) && __CCE_AICORE__ >= 200
#define OPKG_HL_SUM_TPL (template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>)
OPKG_HL_API(OPKG_HL_SUM_TPL, Sum, (const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
            const SumParams& sumParams), opkg_sim::run_sum(dst, src, &sharedTmpBuffer, sumParams, loc))
OPKG_HL_API(OPKG_HL_SUM_TPL, Sum, (const LocalTensor<T>& src, const SumParams& sumParams),
            opkg_sim::run_sum(dst, src, nullptr, sumParams, loc))
#undef OPKG_HL_SUM_TPL

#define OPKG_HL_MEAN_TPL (template <typename T, typename accType = T, bool isReuseSource = false, \
                          bool isBasicBlock = false, int32_t reduceDim = -1>)
OPKG_HL_API(OPKG_HL_MEAN_TPL, Mean, (const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
            const MeanParams& meanParams), (opkg_sim::run_mean<T, accType>(dst, src, &sharedTmpBuffer, meanParams, loc)))
OPKG_HL_API(OPKG_HL_MEAN_TPL, Mean, (const LocalTensor<T>& src, const MeanParams& meanParams),
            (opkg_sim::run_mean<T, accType>(dst, src, nullptr, meanParams, loc)))
#undef OPKG_HL_MEAN_TPL
#endif

#if defined(__CCE_AICORE__) && (__CCE_AICORE__ == 200 || __CCE_AICORE__ == 220)
#define OPKG_HL_SEL_TPL (template <typename T, typename U, bool isReuseMask = true>)
OPKG_HL_API(OPKG_HL_SEL_TPL, SelectWithBytesMask, (const LocalTensor<T>& src0, T src1, const LocalTensor<U>& mask,
            const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info),
            (opkg_sim::run_select_bytes<T, U, isReuseMask>(dst, [&src0](uint64_t k) { return src0.ptr_[k]; },
                                                           [src1](uint64_t) { return src1; }, mask, sharedTmpBuffer,
                                                           info, src0, loc)))
OPKG_HL_API(OPKG_HL_SEL_TPL, SelectWithBytesMask, (T src0, const LocalTensor<T>& src1, const LocalTensor<U>& mask,
            const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info),
            (opkg_sim::run_select_bytes<T, U, isReuseMask>(dst, [src0](uint64_t) { return src0; },
                                                           [&src1](uint64_t k) { return src1.ptr_[k]; }, mask,
                                                           sharedTmpBuffer, info, src1, loc)))
#undef OPKG_HL_SEL_TPL
#endif

}  // namespace AscendC
#endif
