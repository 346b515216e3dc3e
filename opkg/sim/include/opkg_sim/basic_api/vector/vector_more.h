// Basic APIs real operators use beyond vector.h: PairReduceSum, ShiftLeft/ShiftRight, the level-0
// (mask, repeat) forms of Cast and Compare, PopStackBuffer, CrossCoreSetFlag/CrossCoreWaitFlag
// (mode 0, the all-core barrier), DataCacheCleanAndInvalid (the sim has no data cache) and the
// utility InitGlobalMemory.
#ifndef OPKG_SIM_VECTOR_MORE_H
#define OPKG_SIM_VECTOR_MORE_H

#include <type_traits>
#include "opkg_sim/basic_api/vector/vector.h"
#include "opkg_sim/basic_api/core/kmisc.h"
#include "opkg_sim/basic_api/core/cross_core.h"

namespace opkg_sim {

// PairReduceSum: per repeat, output k is the sum of lanes 2k and 2k+1 that the mask selects
// (a pair without an active lane is not written); results land dstRepStride * 128 bytes apart.
// A repeat's inputs are read before its outputs are written, so dst may overlap src as long
// as it does not run ahead of it (the in-place halving cann-ops uses).
template <class T>
inline void pair_reduce_sum(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, const Mask& m,
                            int32_t repeat, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
                            SrcLoc loc) {
    static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value,
                  "PairReduceSum supports half and float");
    const char* op = "PairReduceSum";
    if (repeat < 0 || repeat > 255) fail(loc, format("%s: repeat %d outside [0, 255]", op, repeat));
    repeat = m.reps(repeat);   // counter mode: from the element count
    if (repeat == 0) return;
    check_level0(src, m, uint8_t(repeat), uint32_t(srcBlkStride), uint32_t(srcRepStride), op, "src", loc);
    const uint32_t per_repeat = 256 / sizeof(T), half_repeat = per_repeat / 2;
    const uint64_t dst_end = (uint64_t(repeat - 1) * uint64_t(dstRepStride) * 128) / sizeof(T) + m.last() / 2 + 1;
    check_ub(dst, dst_end * sizeof(T), op, "dst", loc);
    count_level0<T>(op, m, uint32_t(repeat));
    using C = calc_t<T>;
    const uint8_t* x = reinterpret_cast<const uint8_t*>(src.ptr_);
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr_);
    T out[128];
    bool any[128];
    auto lane = [&](int32_t r, uint32_t j) {
        return x + elem_offset<T>(uint32_t(r), j, uint32_t(srcBlkStride), uint32_t(srcRepStride));
    };
    for (int32_t r = 0; r < repeat; ++r) {
        for (uint32_t k = 0; k < half_repeat; ++k) {
            C sum = C(0);
            any[k] = false;
            for (uint32_t j = 2 * k; j < 2 * k + 2; ++j) {
                if (!m.test(r, j)) continue;
                T v;
                std::memcpy(&v, lane(r, j), sizeof(T));
                sum = any[k] ? sum + static_cast<C>(v) : static_cast<C>(v);
                any[k] = true;
            }
            out[k] = static_cast<T>(sum);
        }
        // Each sum is written right after the reads of its own pair: an undefined lane leaves
        // only that pair's sum undefined (check_read / mark_written). In place, a sum lands behind
        // the pairs still to be checked, so their reads see the repeat's input.
        uint8_t* base = d + uint64_t(r) * uint64_t(dstRepStride) * 128;
        for (uint32_t k = 0; k < half_repeat; ++k) {
            if (!any[k]) continue;
            for (uint32_t j = 2 * k; j < 2 * k + 2; ++j) {
                if (m.test(r, j)) check_read(lane(r, j), sizeof(T), op, "src", loc);
            }
            std::memcpy(base + k * sizeof(T), &out[k], sizeof(T));
            mark_written(base + k * sizeof(T), sizeof(T));
        }
    }
}

template <class T> struct is_shift_type
    : std::integral_constant<bool, std::is_same<T, int16_t>::value || std::is_same<T, uint16_t>::value ||
                                       std::is_same<T, int32_t>::value || std::is_same<T, uint32_t>::value> {};

// Shifts by `n` bits in [0, bits]: CANN's dav_c220 impl checks scalarValue against
// [0, sizeof(T) * 8] ("sizeof(T) * 8 as max"), so a shift by the full width is legal and shifts every
// bit out: 0 for left and logical right shifts, the sign fill (0 or -1) for arithmetic ones, which
// is what kernels use it for (a sign mask from an int32 shifted right by 32). Computed in 64 bits so
// n == bits is defined in C++. roundEn adds the last bit shifted out.
template <class T> inline T shift(T v, int64_t n, bool left, bool round) {
    using U = typename std::make_unsigned<T>::type;
    using W = typename std::conditional<std::is_signed<T>::value, int64_t, uint64_t>::type;
    if (left) return static_cast<T>(static_cast<U>(static_cast<uint64_t>(static_cast<U>(v)) << n));
    T r = static_cast<T>(static_cast<W>(v) >> n);
    if (round && n > 0 && ((static_cast<W>(v) >> (n - 1)) & 1)) r = static_cast<T>(r + 1);
    return r;
}

template <class T> inline int64_t shift_amount(T s, const char* op, SrcLoc loc) {
    static_assert(is_shift_type<T>::value, "ShiftLeft/ShiftRight support int16_t, uint16_t, int32_t and uint32_t");
    int64_t n = int64_t(s);
    if (n < 0 || n > int64_t(sizeof(T) * 8)) {
        fail(loc, format("%s: shift by %lld bits is outside [0, %d] for %s", op, (long long)n, int(sizeof(T) * 8),
                         type_name<T>()));
    }
    return n;
}

struct CrossCoreFlags {
    const void* launch = nullptr;
    int64_t block = -1;
    uint32_t pending[16] = {};
};

// Flags set by this block in this launch (reset when a new block or launch starts).
inline CrossCoreFlags& cross_core_flags() {
    static thread_local CrossCoreFlags f;
    BlockState& b = block();
    if (f.launch != b.log || f.block != b.idx) {
        f = CrossCoreFlags{};
        f.launch = b.log;
        f.block = b.idx;
    }
    return f;
}

// Level-0 Cast: lane j of repeat r sits at each operand's own level-0 address (blocks of 32 bytes
// of its own type); a repeat has as many lanes as the wider type fits in 256 bytes.
template <class D, class S>
inline void level0_cast(const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<S>& src, AscendC::RoundMode mode,
                        const Mask& m, uint32_t repeat, const AscendC::UnaryRepeatParams& p, SrcLoc loc) {
    repeat = m.reps(repeat);   // counter mode: from the element count
    using W = typename std::conditional<(sizeof(D) > sizeof(S)), D, S>::type;
    const char* op = "Cast";
    check_level0(dst, m, repeat, p.dstBlkStride, p.dstRepStride, op, "dst", loc);
    check_level0(src, m, repeat, p.srcBlkStride, p.srcRepStride, op, "src", loc);
    count_level0<W>(op, m, repeat);
    const uint32_t lanes = 256 / sizeof(W);
    for (uint32_t r = 0; r < repeat; ++r) {
        for (uint32_t j = 0; j < lanes; ++j) {
            if (!m.test(r, j)) continue;
            const uint8_t* ps = reinterpret_cast<const uint8_t*>(src.ptr_) + elem_offset<S>(r, j, p.srcBlkStride, p.srcRepStride);
            check_read(ps, sizeof(S), op, "src", loc);
            S v;
            std::memcpy(&v, ps, sizeof(S));
            D out = convert<D, S>(v, mode);
            uint8_t* pd = reinterpret_cast<uint8_t*>(dst.ptr_) + elem_offset<D>(r, j, p.dstBlkStride, p.dstRepStride);
            std::memcpy(pd, &out, sizeof(D));
            mark_written(pd, sizeof(D));
        }
    }
}

// Level-0 Compare / CompareScalar: each repeat writes one bit per lane (lanes = 256 / sizeof(T)),
// the repeats' bits one after another in dst; lanes the mask leaves out get 0. `second(r, j)`
// gives lane j of repeat r of the second operand (a tensor's lane, read and checked, or the
// scalar).
// `second_defined(r, j)` says whether that lane of the second operand is defined: a bit byte
// with an undefined lane records which of its bits are defined (record_mask_bits' encoding),
// so Select takes each element's definedness from its own bit.
template <class T, class U, class Second, class SecondDefined>
inline void level0_compare_with(const AscendC::LocalTensor<U>& dst, const AscendC::LocalTensor<T>& a,
                                uint16_t aBlk, uint16_t aRep, Second second, SecondDefined second_defined,
                                AscendC::CMPMODE mode, const Mask& m, uint32_t repeat, const char* op, SrcLoc loc) {
    repeat = m.reps(repeat);   // counter mode: from the element count
    check_level0(a, m, repeat, aBlk, aRep, op, "src0", loc);
    const uint32_t lanes = 256 / sizeof(T);
    const uint64_t bytes = uint64_t(repeat) * lanes / 8;
    check_ub(dst, bytes, op, "dst", loc);
    count_level0<T>(op, m, repeat);
    uint8_t* bits = reinterpret_cast<uint8_t*>(dst.ptr_);
    std::memset(bits, 0, bytes);
    mark_written(bits, bytes);   // the bits no lane sets are defined zeros
    // A byte of bits is written right after the reads of its 8 lanes: an undefined lane leaves
    // only its own byte undefined (check_read / mark_written work in bytes).
    for (uint32_t r = 0; r < repeat; ++r) {
        for (uint32_t j0 = 0; j0 < lanes; j0 += 8) {
            bool read = false;
            uint16_t defined_bits = 0x100;
            for (uint32_t j = j0; j < j0 + 8; ++j) {
                if (!m.test(r, j)) {
                    defined_bits |= uint16_t(1u << (j - j0));   // a defined 0
                    continue;
                }
                const uint8_t* pa = reinterpret_cast<const uint8_t*>(a.ptr_) + elem_offset<T>(r, j, aBlk, aRep);
                if (ub_defined(pa, sizeof(T)) && second_defined(r, j)) defined_bits |= uint16_t(1u << (j - j0));
                check_read(pa, sizeof(T), op, "src0", loc);
                read = true;
                T x;
                std::memcpy(&x, pa, sizeof(T));
                const T y = second(r, j);
                if (compare(static_cast<calc_t<T>>(x), static_cast<calc_t<T>>(y), mode)) {
                    const uint64_t bit = uint64_t(r) * lanes + j;
                    bits[bit / 8] |= uint8_t(1u << (bit % 8));
                }
            }
            if (read) {
                uint8_t* byte = bits + (uint64_t(r) * lanes + j0) / 8;
                mark_written(byte, 1);
                record_bit_definedness(byte, defined_bits);
            }
        }
    }
}

template <class T, class U>
inline void level0_compare(const AscendC::LocalTensor<U>& dst, const AscendC::LocalTensor<T>& a,
                           const AscendC::LocalTensor<T>& b, AscendC::CMPMODE mode, const Mask& m, uint32_t repeat,
                           const AscendC::BinaryRepeatParams& p, SrcLoc loc) {
    const char* op = "Compare";
    check_level0(b, m, m.reps(repeat), p.src1BlkStride, p.src1RepStride, op, "src1", loc);
    auto lane = [&](uint32_t r, uint32_t j) {
        const uint8_t* pb = reinterpret_cast<const uint8_t*>(b.ptr_) + elem_offset<T>(r, j, p.src1BlkStride, p.src1RepStride);
        check_read(pb, sizeof(T), op, "src1", loc);
        T y;
        std::memcpy(&y, pb, sizeof(T));
        return y;
    };
    auto lane_defined = [&](uint32_t r, uint32_t j) {
        return ub_defined(reinterpret_cast<const uint8_t*>(b.ptr_) + elem_offset<T>(r, j, p.src1BlkStride, p.src1RepStride),
                          sizeof(T));
    };
    level0_compare_with(dst, a, p.src0BlkStride, p.src0RepStride, lane, lane_defined, mode, m, repeat, op, loc);
}

template <class T, class U>
inline void level0_compare_scalar(const AscendC::LocalTensor<U>& dst, const AscendC::LocalTensor<T>& a, T scalar,
                                  AscendC::CMPMODE mode, const Mask& m, uint32_t repeat,
                                  const AscendC::UnaryRepeatParams& p, SrcLoc loc) {
    level0_compare_with(dst, a, p.srcBlkStride, p.srcRepStride, [scalar](uint32_t, uint32_t) { return scalar; },
                        [](uint32_t, uint32_t) { return true; },
                        mode, m, repeat, "CompareScalar", loc);
}

}  // namespace opkg_sim

namespace AscendC {

template <class T, bool isSetMask = true>
inline void PairReduceSum(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const int32_t repeat,
                          const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride,
                          const int32_t srcRepStride, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::pair_reduce_sum(dstLocal, srcLocal, opkg_sim::continuous_mask<T, isSetMask>(uint64_t(mask), "PairReduceSum", loc),
                              repeat, dstRepStride, srcBlkStride, srcRepStride, loc);
}

template <class T, bool isSetMask = true>
inline void PairReduceSum(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const int32_t repeat,
                          const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,
                          const int32_t srcRepStride, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::pair_reduce_sum(dstLocal, srcLocal, opkg_sim::bit_mask<T, isSetMask>(mask, "PairReduceSum", loc), repeat,
                              dstRepStride, srcBlkStride, srcRepStride, loc);
}

#define OPKG_SIM_SHIFT(NAME, LEFT, ROUND_PARAM, ROUND)                                                         \
    template <class T, bool isSetMask = true>                                                                 \
    inline void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,                          \
                     const typename opkg_sim::identity<T>::type& scalarValue, const int32_t& calCount,        \
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {                                     \
        const int64_t n = opkg_sim::shift_amount<T>(scalarValue, #NAME, loc);                                 \
        opkg_sim::unary(dstLocal, srcLocal, calCount, [n](T v) { return opkg_sim::shift<T>(v, n, LEFT, false); }, \
                        #NAME, loc);                                                                          \
    }                                                                                                         \
    template <class T, bool isSetMask = true>                                                                 \
    inline void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,                          \
                     const typename opkg_sim::identity<T>::type& scalarValue, uint64_t mask,                  \
                     const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams ROUND_PARAM,            \
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {                                     \
        const int64_t n = opkg_sim::shift_amount<T>(scalarValue, #NAME, loc);                                 \
        opkg_sim::level0_unary(dstLocal, srcLocal, opkg_sim::continuous_mask<T, isSetMask>(mask, #NAME, loc), repeatTimes, \
                               repeatParams, [n, ROUND](T v) { return opkg_sim::shift<T>(v, n, LEFT, ROUND); }, \
                               #NAME, loc);                                                                   \
    }                                                                                                         \
    template <class T, bool isSetMask = true>                                                                 \
    inline void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,                          \
                     const typename opkg_sim::identity<T>::type& scalarValue, uint64_t mask[],                \
                     const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams ROUND_PARAM,            \
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {                                     \
        const int64_t n = opkg_sim::shift_amount<T>(scalarValue, #NAME, loc);                                 \
        opkg_sim::level0_unary(dstLocal, srcLocal, opkg_sim::bit_mask<T, isSetMask>(mask, #NAME, loc), repeatTimes,       \
                               repeatParams, [n, ROUND](T v) { return opkg_sim::shift<T>(v, n, LEFT, ROUND); }, \
                               #NAME, loc);                                                                   \
    }

#define OPKG_SIM_COMMA ,
OPKG_SIM_SHIFT(ShiftLeft, true, , roundEn = false)
OPKG_SIM_SHIFT(ShiftRight, false, OPKG_SIM_COMMA bool roundEn = false, roundEn)
#undef OPKG_SIM_COMMA
#undef OPKG_SIM_SHIFT

template <class T1, class T2, bool isSetMask = true>
inline void Cast(const LocalTensor<T1>& dstLocal, const LocalTensor<T2>& srcLocal, const RoundMode& round_mode,
                 const uint64_t mask, const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams,
                 opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    using W = typename std::conditional<(sizeof(T1) > sizeof(T2)), T1, T2>::type;
    opkg_sim::level0_cast(dstLocal, srcLocal, round_mode, opkg_sim::continuous_mask<W, isSetMask>(mask, "Cast", loc), repeatTimes,
                          repeatParams, loc);
}
template <class T1, class T2, bool isSetMask = true>
inline void Cast(const LocalTensor<T1>& dstLocal, const LocalTensor<T2>& srcLocal, const RoundMode& round_mode,
                 const uint64_t mask[], const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams,
                 opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    using W = typename std::conditional<(sizeof(T1) > sizeof(T2)), T1, T2>::type;
    opkg_sim::level0_cast(dstLocal, srcLocal, round_mode, opkg_sim::bit_mask<W, isSetMask>(mask, "Cast", loc), repeatTimes,
                          repeatParams, loc);
}

template <class T, class U, bool isSetMask = true>
inline void Compare(const LocalTensor<U>& dstLocal, const LocalTensor<T>& src0Local, const LocalTensor<T>& src1Local,
                    CMPMODE cmpMode, const uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams& repeatParams,
                    opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::level0_compare(dstLocal, src0Local, src1Local, cmpMode, opkg_sim::continuous_mask<T, isSetMask>(mask, "Compare", loc),
                             repeatTimes, repeatParams, loc);
}
template <class T, class U, bool isSetMask = true>
inline void Compare(const LocalTensor<U>& dstLocal, const LocalTensor<T>& src0Local, const LocalTensor<T>& src1Local,
                    CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTimes, const BinaryRepeatParams& repeatParams,
                    opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::level0_compare(dstLocal, src0Local, src1Local, cmpMode, opkg_sim::bit_mask<T, isSetMask>(mask, "Compare", loc),
                             repeatTimes, repeatParams, loc);
}

template <class T, class U, bool isSetMask = true>
inline void CompareScalar(const LocalTensor<U>& dstLocal, const LocalTensor<T>& src0Local,
                          const typename opkg_sim::identity<T>::type src1Scalar, CMPMODE cmpMode, const uint64_t mask,
                          uint8_t repeatTimes, const UnaryRepeatParams& repeatParams,
                          opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::level0_compare_scalar(dstLocal, src0Local, static_cast<T>(src1Scalar), cmpMode,
                                    opkg_sim::continuous_mask<T, isSetMask>(mask, "CompareScalar", loc), repeatTimes,
                                    repeatParams, loc);
}
template <class T, class U, bool isSetMask = true>
inline void CompareScalar(const LocalTensor<U>& dstLocal, const LocalTensor<T>& src0Local,
                          const typename opkg_sim::identity<T>::type src1Scalar, CMPMODE cmpMode, const uint64_t mask[],
                          uint8_t repeatTimes, const UnaryRepeatParams& repeatParams,
                          opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::level0_compare_scalar(dstLocal, src0Local, static_cast<T>(src1Scalar), cmpMode,
                                    opkg_sim::bit_mask<T, isSetMask>(mask, "CompareScalar", loc), repeatTimes,
                                    repeatParams, loc);
}

// Duplicate's bit-mask level-0 form (vector.h has the continuous one).
template <class T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T>& dstLocal, const typename opkg_sim::identity<T>::type& scalarValue,
                      uint64_t mask[], const uint8_t repeatTimes, const uint16_t dstBlockStride,
                      const uint8_t dstRepeatStride, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    UnaryRepeatParams p(dstBlockStride, dstBlockStride, dstRepeatStride, dstRepeatStride);
    const T v = scalarValue;
    opkg_sim::level0_unary(dstLocal, dstLocal, opkg_sim::bit_mask<T, isSetMask>(mask, "Duplicate", loc), repeatTimes, p,
                           [v](opkg_sim::calc_t<T>) { return static_cast<opkg_sim::calc_t<T>>(v); }, "Duplicate", loc,
                           false);
}

// Fills `size` elements of GM with `value` (A2/A3, 310P and the Ascend 950, as in CANN), a store
// like DataCopy's.
#if defined(__CCE_AICORE__) && (__CCE_AICORE__ == 200 || __CCE_AICORE__ == 220 || __CCE_AICORE__ == 310)
template <typename T>
inline void InitGlobalMemory(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value,
                             opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::check_gt(gmWorkspaceAddr, size * sizeof(T), "InitGlobalMemory", loc);   // check_gm included
    opkg_sim::save_undo(gmWorkspaceAddr.ptr_, size * sizeof(T));
    for (uint64_t i = 0; i < size; ++i) gmWorkspaceAddr.ptr_[i] = value;
    opkg_sim::record_write(gmWorkspaceAddr.ptr_, size * sizeof(T), loc);
    opkg_sim::count_copy(opkg_sim::COPY_UB_GM, size * sizeof(T));
}
// The high-level API's name of the same fill (asc-devkit adv_api/utils/init_global_memory.h's
// Fill; ops-nn's 950 index_fill clears its output with it).
template <typename T>
inline void Fill(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value,
                 opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    InitGlobalMemory(gmWorkspaceAddr, size, value, loc);
}
// The older name of the same fill (CANN's common interface), value 0 by default.
template <typename T>
inline void InitOutput(GlobalTensor<T> gmWorkspaceAddr, uint32_t size, T value = 0,
                       opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    InitGlobalMemory(gmWorkspaceAddr, uint64_t(size), value, loc);
}
#endif

// The UB that InitBuffer left free, as one tensor (the high-level APIs' scratch space). Its
// bytes count as unwritten until something writes them.
template <typename T, TPosition pos>
inline bool PopStackBuffer(LocalTensor<T>& popLocal) {
    opkg_sim::BlockState& b = opkg_sim::block();
    const uint64_t start = (b.ub_cursor + 31) / 32 * 32;
    const uint64_t left = b.ub_bytes > start ? b.ub_bytes - start : 0;
    popLocal = LocalTensor<T>(reinterpret_cast<T*>(b.ub + start), uint32_t(left / sizeof(T)), pos);
    return left > 0;
}

enum class CacheLine : uint64_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint64_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };

// The sim reads and writes GM directly: there is no cache to clean, only the call to accept.
template <typename T, CacheLine entireType, DcciDst dcciDst>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T>&) {}
template <typename T, CacheLine entireType, DcciDst dcciDst>
inline void DataCacheCleanAndInvalid(const LocalTensor<T>&) {}
template <typename T, CacheLine entireType>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T>&) {}

// Mode 0: every block sets the flag and waits for it: an all-core barrier (SyncAll's rules), of
// the vector or the cube cores. Modes 1 and 2 are the flags inside an AI core (cross_core.h),
// which a split launch (core_by_task_type.h) models; elsewhere the kernel runs its vector bodies
// only and they are refused.
template <uint8_t modeId, pipe_t pipe>
inline void CrossCoreSetFlag(uint16_t flagId, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::note(loc);
    if (flagId >= 16) opkg_sim::fail(loc, opkg_sim::format("CrossCoreSetFlag: flagId %u outside [0, 15]", flagId));
    if (modeId == 1 || modeId == 2) {
        if (!opkg_sim::block().split) {
            opkg_sim::fail(loc, opkg_sim::format(
                "CrossCoreSetFlag mode %u (cube/vector group sync) in a kernel the sim runs as vector bodies only: it "
                "runs the cube and vector bodies of each AI core where the kernel declares a mixed task type "
                "(KERNEL_TASK_TYPE) or tests the core type", unsigned(modeId)));
        }
        opkg_sim::cross_core_set(modeId, flagId, loc);
        return;
    }
    if (modeId != 0) {
        opkg_sim::fail(loc, opkg_sim::format("CrossCoreSetFlag mode %u: A2/A3 have modes 0, 1 and 2", unsigned(modeId)));
    }
    ++opkg_sim::cross_core_flags().pending[flagId];
}

// A wait after the block's own mode-0 set is the all-core barrier; any other takes the core's
// counter of the flag (cross_core.h).
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
inline void CrossCoreWaitFlag(uint16_t flagId, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::note(loc);
    if (flagId >= 16) opkg_sim::fail(loc, opkg_sim::format("CrossCoreWaitFlag: flagId %u outside [0, 15]", flagId));
    opkg_sim::CrossCoreFlags& f = opkg_sim::cross_core_flags();
    if (!f.pending[flagId]) {
        if (opkg_sim::block().split) {
            opkg_sim::cross_core_wait(flagId, loc);
            return;
        }
        opkg_sim::fail(loc, opkg_sim::format("CrossCoreWaitFlag(%u) without a CrossCoreSetFlag of that flag before "
                                             "it in this block: on hardware the block would wait forever", flagId));
    }
    --f.pending[flagId];
    opkg_sim::sync_all_blocks(loc, [] {});
}

// NotifyEvent/WaitEvent: the cube/vector group sync of a mixed kernel (asc-devkit's
// kernel_operator_block_sync_intf_impl.h: CrossCoreSetFlag mode 2 and its wait).
template <pipe_t pipe>
inline void NotifyEvent(uint16_t flagId, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    CrossCoreSetFlag<2, pipe>(flagId, loc);
}

template <pipe_t pipe = PIPE_S>
inline void WaitEvent(uint16_t flagId, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    CrossCoreWaitFlag<2, pipe>(flagId, loc);
}

// SetSyncBaseAddr: the FFTS base address register, which the A2/A3 cross-core flags go through on
// the device (dav_c220 kernel_operator_sync_impl.h: set_ffts_base_addr). The sim keeps its flags
// per AI core itself: the value is held, and nothing reads it back.
inline void SetSyncBaseAddr(uint64_t config) { opkg_sim::block().ffts_base = config; }

}  // namespace AscendC

inline void set_ffts_base_addr(uint64_t config) { AscendC::SetSyncBaseAddr(config); }

// The CCE builtins behind CrossCoreSetFlag / CrossCoreWaitFlag, which kernels also call directly
// (cann-ops' STFT): config is 1 | mode << 4 | flagId << 8.
inline void ffts_cross_core_sync(pipe_t pipe, uint64_t config, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    (void)pipe;
    const unsigned mode = unsigned((config >> 4) & 0x3), flag = unsigned((config >> 8) & 0xF);
    switch (mode) {
        case 0: AscendC::CrossCoreSetFlag<0, PIPE_S>(uint16_t(flag), loc); break;
        case 1: AscendC::CrossCoreSetFlag<1, PIPE_S>(uint16_t(flag), loc); break;
        default: AscendC::CrossCoreSetFlag<2, PIPE_S>(uint16_t(flag), loc); break;
    }
}
inline void wait_flag_dev(int64_t flagId, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    AscendC::CrossCoreWaitFlag(static_cast<uint16_t>(flagId), loc);
}
#endif
