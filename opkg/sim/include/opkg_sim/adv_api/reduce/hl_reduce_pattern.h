// The Ascend 950's pattern reduce API (asc-devkit include/adv_api/reduce/reduce.h and
// reduce_common.h, the ReduceSum page): ReduceSum/ReduceMax/ReduceMin<T, pattern, isReuseSource>
// (dst, src[, sharedTmpBuffer], srcShape, srcInnerPad) over a 2-D [s0, s1] tensor. AR reduces each
// row (dst[i] over src[i][*]), RA each column (dst[j] over src[*][j]); the devkit supports these
// two patterns only. On the 950 src is dense (rows s1 elements apart) and srcInnerPad is reserved
// (dav_3510's reduce_sum_3510_impl.h picks its algorithm from s1's alignment). Sums are pairwise
// trees in T, as the vector unit's ReduceSum; integers wrap.
#ifndef OPKG_SIM_HL_REDUCE_PATTERN_H
#define OPKG_SIM_HL_REDUCE_PATTERN_H

#include "opkg_sim/adv_api/hlapi.h"

// Atlas A2/A3 (2201) have the API too (the devkit's reduce_sum_v220_impl.h): float only, and the
// rows of src lie 32-byte aligned apart (its padLast), whatever srcInnerPad says.
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510 || __NPU_ARCH__ == 2201)
namespace AscendC {
namespace Pattern {
namespace Reduce {
// each letter one dimension, R reduced, A kept (the devkit's structs; only AR and RA compute)
struct R {};
struct AR {};
struct RA {};
struct ARA {};
struct RAR {};
}  // namespace Reduce
}  // namespace Pattern
}  // namespace AscendC

namespace opkg_sim {

// The dtypes each API takes (dav_3510's reduce_sum_3510_impl.h, reduce_max_3510_impl.h and
// reduce_min_3510_impl.h; on A2/A3 reduce_*_v220_impl.h): ReduceMax and ReduceMin also take the
// 8- and 16-bit types (softmax_cross_entropy_with_logits' half rows, the 3-D pooling kernels).
template <class T>
constexpr bool any_of_types() { return false; }
template <class T, class U, class... Us>
constexpr bool any_of_types() { return std::is_same<T, U>::value || any_of_types<T, Us...>(); }

template <class T, class P, bool minmax, class Op>
inline void pattern_reduce(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                           const AscendC::LocalTensor<uint8_t>* tmp, const uint32_t shape[], const char* op, Op f,
                           SrcLoc loc) {
    constexpr bool ar = std::is_same<P, AscendC::Pattern::Reduce::AR>::value;
    static_assert(ar || std::is_same<P, AscendC::Pattern::Reduce::RA>::value,
                  "the pattern reduce API supports the patterns AR and RA only");
#if __NPU_ARCH__ == 2201
    static_assert(std::is_same<T, float>::value || (minmax && std::is_same<T, half>::value),
                  "the pattern reduce API takes float (ReduceMax/ReduceMin also half) on Atlas A2/A3");
    constexpr uint64_t per_block = 32 / sizeof(T);
    const uint64_t rs = (uint64_t(shape[1]) + per_block - 1) / per_block * per_block;   // row stride
#else
    static_assert(any_of_types<T, float, int32_t, uint32_t, int64_t, uint64_t>() ||
                      (minmax && any_of_types<T, int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t>()),
                  "the pattern reduce API takes float, int32_t, uint32_t, int64_t or uint64_t (ReduceMax and "
                  "ReduceMin also int8_t, uint8_t, int16_t, uint16_t, half and bfloat16_t) on the Ascend 950");
    const uint64_t rs = shape[1];
#endif
    note(loc);
    const uint64_t s0 = shape[0], s1 = shape[1];
    if (s0 == 0 || s1 == 0) fail(loc, format("%s: srcShape [%llu, %llu] has an empty axis", op,
                                             (unsigned long long)s0, (unsigned long long)s1));
    const uint64_t outer = ar ? s0 : s1, inner = ar ? s1 : s0;
    check_count(src, (s0 - 1) * rs + s1, op, "src", loc);
    check_count(dst, outer, op, "dst", loc);
    if (tmp) check_ub(*tmp, 0, op, "sharedTmpBuffer", loc);
    std::vector<T> line(inner);
    for (uint64_t o = 0; o < outer; ++o) {
        // each result is defined when its own row (column) is: a tail tile's unwritten columns
        // leave only their results undefined (ops-nn's softmax_grad reduces a whole tile RA)
        if (ar) {
            check_read(src.ptr_ + o * rs, s1 * sizeof(T), op, "src", loc);
        } else {
            for (uint64_t k = 0; k < inner; ++k) check_read(src.ptr_ + k * rs + o, sizeof(T), op, "src", loc);
        }
        for (uint64_t k = 0; k < inner; ++k) line[k] = ar ? src.ptr_[o * rs + k] : src.ptr_[k * rs + o];
        dst.ptr_[o] = tree_reduce(line.data(), int64_t(inner), f);
        mark_written(dst.ptr_ + o, sizeof(T));
    }
    count_vec_of<T>(op, int64_t(s0 * s1));
}

}  // namespace opkg_sim

namespace AscendC {

#define OPKG_HL_PATTERN_REDUCE(NAME, MINMAX, F)                                                                   \
    template <class T, class pattern, bool isReuseSource = false>                                                 \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                            \
                     const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t srcShape[], bool srcInnerPad,    \
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {                                        \
        (void)srcInnerPad;                                                                                        \
        opkg_sim::pattern_reduce<T, pattern, MINMAX>(dstTensor, srcTensor, &sharedTmpBuffer, srcShape, #NAME, F, \
                                                     loc);                                                    \
    }                                                                                                             \
    template <class T, class pattern, bool isReuseSource = false>                                                 \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t srcShape[], \
                     bool srcInnerPad, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {                      \
        (void)srcInnerPad;                                                                                        \
        opkg_sim::pattern_reduce<T, pattern, MINMAX>(dstTensor, srcTensor, nullptr, srcShape, #NAME, F, loc);     \
    }
OPKG_HL_PATTERN_REDUCE(ReduceSum, false, ([](auto a, auto b) { return a + b; }))
OPKG_HL_PATTERN_REDUCE(ReduceMax, true, ([](auto a, auto b) { return a < b ? b : a; }))
OPKG_HL_PATTERN_REDUCE(ReduceMin, true, ([](auto a, auto b) { return b < a ? b : a; }))
#undef OPKG_HL_PATTERN_REDUCE

}  // namespace AscendC
#endif
#endif
