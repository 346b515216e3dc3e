// Level-0 vector Copy (UB->UB with a mask and block/repeat strides), GatherMask (vreducev2: keep the
// elements a built-in or user bit pattern selects, packed, and count them) and Sort32 (vbitsort:
// 32 scores per repeat sorted descending into (score, index) pairs).
#ifndef OPKG_SIM_GATHER_SORT_H
#define OPKG_SIM_GATHER_SORT_H

#include "opkg_sim/basic_api/vector/vector.h"

namespace AscendC {

struct CopyRepeatParams {
    CopyRepeatParams() = default;
    CopyRepeatParams(uint16_t dstStrideIn, uint16_t srcStrideIn, uint16_t dstRepeatSizeIn, uint16_t srcRepeatSizeIn)
        : dstStride(dstStrideIn), srcStride(srcStrideIn), dstRepeatSize(dstRepeatSizeIn), srcRepeatSize(srcRepeatSizeIn) {}
    uint16_t dstStride = 1;       // blocks between the 32-byte blocks of one repeat
    uint16_t srcStride = 1;
    uint16_t dstRepeatSize = 8;   // blocks between repeats
    uint16_t srcRepeatSize = 8;
};

enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 220
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V2;
#else
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V1;
#endif
constexpr GatherMaskMode defaultGahterMaskMode = defaultGatherMaskMode;   // CANN's own misspelling, kept

struct GatherMaskParams {
    GatherMaskParams() = default;
    GatherMaskParams(uint8_t src0BlockStrideIn, uint16_t repeatTimesIn, uint16_t src0RepeatStrideIn,
                     uint8_t src1RepeatStrideIn)
        : src0BlockStride(src0BlockStrideIn), repeatTimes(repeatTimesIn), src0RepeatStride(src0RepeatStrideIn),
          src1RepeatStride(src1RepeatStrideIn) {}
    uint8_t src0BlockStride = 1;
    uint16_t repeatTimes = 0;
    uint16_t src0RepeatStride = 8;
    uint8_t src1RepeatStride = 8;
};

}  // namespace AscendC

namespace opkg_sim {

// What the block's last GatherMask kept (GetGatherMaskRemainCount reads the register it sets).
inline int64_t& gather_mask_kept() {
    static thread_local int64_t kept = 0;
    return kept;
}

template <class T>
inline void level0_copy(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, const Mask& m,
                        uint32_t repeat, const AscendC::CopyRepeatParams& p, SrcLoc loc) {
    repeat = m.reps(repeat);   // counter mode: from the element count
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Copy takes 16- or 32-bit elements");
    const char* op = "Copy";
    check_level0(dst, m, repeat, p.dstStride, p.dstRepeatSize, op, "dst", loc);
    check_level0(src, m, repeat, p.srcStride, p.srcRepeatSize, op, "src", loc);
    count_level0<T>(op, m, repeat);
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.ptr_);
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr_);
    const uint32_t per_repeat = 256 / sizeof(T);
    for (uint32_t r = 0; r < repeat; ++r) {
        for (uint32_t j = 0; j < per_repeat; ++j) {
            if (!m.test(r, j)) continue;
            const uint8_t* ps = s + elem_offset<T>(r, j, p.srcStride, p.srcRepeatSize);
            uint8_t* pd = d + elem_offset<T>(r, j, p.dstStride, p.dstRepeatSize);
            check_read(ps, sizeof(T), op, "src", loc);
            std::memmove(pd, ps, sizeof(T));
            mark_written(pd, sizeof(T));
        }
    }
}

// A user src1Pattern: one bit per element, each repeat's bits `stride` bytes after the previous
// repeat's (bits null: a built-in pattern).
struct GatherPattern {
    const uint8_t* bits = nullptr;
    uint64_t stride = 0, bytes = 0;
};

// Built-in patterns 1..7: every even / odd element, one element of every four (positions 0..3), or all.
inline bool builtin_selects(uint8_t pattern, uint32_t j) {
    switch (pattern) {
        case 1: return j % 2 == 0;
        case 2: return j % 2 == 1;
        case 7: return true;
        default: return j % 4 == uint32_t(pattern - 3);
    }
}

// vreducev2. Normal mode (reduceMode false): each of repeatTimes repeats covers 256 bytes and
// `mask` is ignored. Counter mode (true): each repeat covers the first `mask` elements (A2/A3 and
// 310P, "configuration one" of the documentation); on 310B `mask` is the total element count and
// the repeats follow from it.
//
// Bounds are checked once a repeat (per element only in a repeat that overruns, for the message
// naming it), a repeat's pattern bytes are read at once, and the kept elements read from defined
// bytes are marked written in runs: the same diagnostics and definedness as one check each.
template <class T>
inline uint64_t gather_mask(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                            const GatherPattern& pattern, uint8_t builtin, bool reduceMode, uint32_t mask,
                            const AscendC::GatherMaskParams& p, SrcLoc loc) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "GatherMask takes 16- or 32-bit elements");
    const char* op = "GatherMask";
    const uint32_t per_repeat = 256 / sizeof(T);
    uint32_t repeat = p.repeatTimes;
    uint64_t total = uint64_t(repeat) * per_repeat;
    uint32_t lanes = per_repeat;
    if (reduceMode) {
        if (mask == 0) fail(loc, format("%s: counter mode (reduceMode true) with mask 0 selects nothing", op));
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3002
        total = mask;
        repeat = uint32_t((uint64_t(mask) + per_repeat - 1) / per_repeat);
#else
        if (mask > per_repeat) {
            fail(loc, format("%s: counter mode mask %u is more than the %u %s elements of one repeat", op, mask,
                             per_repeat, type_name<T>()));
        }
        lanes = mask;
        total = uint64_t(repeat) * mask;
#endif
    }
    check_ub(src, 0, op, "src0", loc);
    check_ub(dst, 0, op, "dst", loc);
    count_vec(op, total, total * sizeof(T), repeat);
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.ptr_);
    const uint64_t src_bytes = uint64_t(src.size_) * sizeof(T);
    uint64_t kept = 0, done = 0;
    uint64_t run = 0;   // the last kept elements, read from defined bytes, not yet marked written
    auto flush = [&] {
        if (run) mark_written(dst.ptr_ + (kept - run), run * sizeof(T));
        run = 0;
    };
    for (uint32_t r = 0; r < repeat && done < total; ++r) {
        const uint32_t n = uint32_t(total - done < lanes ? total - done : lanes);
        uint32_t usable = n;            // the lanes whose pattern bit lies inside src1Pattern
        const uint8_t* bits = nullptr;  // this repeat's pattern bits
        bool lane_reads = false;        // undefined pattern bytes: read as each lane uses its bit
        if (pattern.bits) {
            const uint64_t first = uint64_t(r) * pattern.stride;
            const uint64_t avail = first < pattern.bytes ? pattern.bytes - first : 0;
            if (avail * 8 < n) usable = uint32_t(avail * 8);
            bits = pattern.bits + first;
            const uint64_t nbytes = (uint64_t(usable) + 7) / 8;
            if (ub_defined(bits, nbytes)) {
                check_read(bits, nbytes, op, "src1Pattern", loc);
            } else {
                flush();
                lane_reads = true;
            }
        }
        // elem_offset grows with the lane: the last usable one bounds the repeat
        const bool src_fits =
            !usable || elem_offset<T>(r, usable - 1, p.src0BlockStride, p.src0RepeatStride) + sizeof(T) <= src_bytes;
        const bool dst_fits = kept + usable <= dst.size_;
        for (uint32_t j = 0; j < usable; ++j) {
            if (lane_reads) check_read(bits + j / 8, 1, op, "src1Pattern", loc);
            if (bits ? ((bits[j / 8] >> (j % 8)) & 1u) == 0 : !builtin_selects(builtin, j)) continue;
            const uint64_t off = elem_offset<T>(r, j, p.src0BlockStride, p.src0RepeatStride);
            if (!src_fits && off + sizeof(T) > src_bytes) {
                fail(loc, format("%s: repeat %u element %u is at byte %llu, past src0's %u elements", op, r, j,
                                 (unsigned long long)off, src.size_));
            }
            if (!dst_fits && kept >= dst.size_) {
                fail(loc, format("%s: keeps more than dst's %u elements", op, dst.size_));
            }
            // an element read from undefined bytes is written on its own, its taint to itself
            const bool clean = !lane_reads && ub_defined(s + off, sizeof(T));
            if (!clean) flush();
            check_read(s + off, sizeof(T), op, "src0", loc);
            std::memcpy(dst.ptr_ + kept, s + off, sizeof(T));
            ++kept;
            if (clean && block().taints.empty()) ++run;
            else mark_written(dst.ptr_ + kept - 1, sizeof(T));
        }
        if (usable < n) {
            fail(loc, format("%s: repeat %u element %u needs pattern byte %llu, past src1Pattern's %llu bytes", op,
                             r, usable, (unsigned long long)(uint64_t(r) * pattern.stride + usable / 8),
                             (unsigned long long)pattern.bytes));
        }
        done += n;
    }
    flush();
    gather_mask_kept() = int64_t(kept);
    return kept;
}

}  // namespace opkg_sim

namespace AscendC {

template <class T, bool isSetMask = true>
inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask,
                 const uint8_t repeatTimes, const CopyRepeatParams& repeatParams,
                 opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::level0_copy(dst, src, opkg_sim::continuous_mask<T, isSetMask>(mask, "Copy", loc), repeatTimes, repeatParams, loc);
}

template <class T, bool isSetMask = true>
inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
                 const uint8_t repeatTimes, const CopyRepeatParams& repeatParams,
                 opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::level0_copy(dst, src, opkg_sim::bit_mask<T, isSetMask>(mask, "Copy", loc), repeatTimes, repeatParams, loc);
}

#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 310
// The 950's count form: `count` contiguous elements from one UB tensor to another (isSetMask has
// no effect, per the devkit's page).
template <class T, bool isSetMask = true>
inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count,
                 opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    const uint64_t bytes = uint64_t(count) * sizeof(T);
    opkg_sim::check_ub(src, bytes, "Copy", "src", loc);
    opkg_sim::check_ub(dst, bytes, "Copy", "dst", loc);
    opkg_sim::check_read(src.ptr_, bytes, "Copy", "src", loc);
    opkg_sim::count_vec("Copy", count, bytes);
    std::memmove(dst.ptr_, src.ptr_, bytes);
    opkg_sim::mark_written(dst.ptr_, bytes);
}
#endif

template <class T, class U, GatherMaskMode mode = defaultGatherMaskMode>
inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1Pattern,
                       const bool reduceMode, const uint32_t mask, const GatherMaskParams& params, uint64_t& rsvdCnt,
                       opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    static_assert(sizeof(U) == sizeof(T), "GatherMask: the pattern is uint16_t for 16-bit and uint32_t for 32-bit data");
    opkg_sim::check_ub(src1Pattern, 0, "GatherMask", "src1Pattern", loc);
    opkg_sim::GatherPattern pattern;
    pattern.bits = reinterpret_cast<const uint8_t*>(src1Pattern.ptr_);
    pattern.stride = uint64_t(params.src1RepeatStride) * 32;
    pattern.bytes = uint64_t(src1Pattern.size_) * sizeof(U);
    rsvdCnt = opkg_sim::gather_mask(dst, src0, pattern, 0, reduceMode, mask, params, loc);
}

template <class T, GatherMaskMode mode = defaultGatherMaskMode>
inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern,
                       const bool reduceMode, const uint32_t mask, const GatherMaskParams& params, uint64_t& rsvdCnt,
                       opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    if (src1Pattern < 1 || src1Pattern > 7) {
        opkg_sim::fail(loc, opkg_sim::format("GatherMask: built-in src1Pattern %u is outside [1, 7]", unsigned(src1Pattern)));
    }
    rsvdCnt = opkg_sim::gather_mask(dst, src0, opkg_sim::GatherPattern(), src1Pattern, reduceMode, mask, params, loc);
}

inline int64_t GetGatherMaskRemainCount() { return opkg_sim::gather_mask_kept(); }

// Per repeat: 32 scores from src0 (consecutive, 32 per repeat) and their 32 uint32 indices from
// src1 become 32 (score, index) pairs of 8 bytes, sorted by score descending; equal scores keep
// their order. A half score takes the first 2 bytes of its pair (the next 2 are zero).
template <class T>
inline void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<uint32_t>& src1,
                   const int32_t repeatTimes, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Sort32 takes half or float scores");
    if (repeatTimes < 0 || repeatTimes > 255) {
        opkg_sim::fail(loc, opkg_sim::format("Sort32: repeatTimes %d outside [0, 255]", repeatTimes));
    }
    const uint64_t n = uint64_t(repeatTimes) * 32;
    opkg_sim::check_ub(src0, n * sizeof(T), "Sort32", "src0", loc);
    opkg_sim::check_ub(src1, n * 4, "Sort32", "src1", loc);
    opkg_sim::check_ub(dst, n * 8, "Sort32", "dst", loc);
    opkg_sim::check_read(src0.ptr_, n * sizeof(T), "Sort32", "src0", loc);
    opkg_sim::check_read(src1.ptr_, n * 4, "Sort32", "src1", loc);
    opkg_sim::count_vec("Sort32", n, n * sizeof(T), uint64_t(repeatTimes));
    using C = opkg_sim::calc_t<T>;
    uint8_t* out = reinterpret_cast<uint8_t*>(dst.ptr_);
    for (int32_t r = 0; r < repeatTimes; ++r) {
        uint32_t order[32];
        for (uint32_t i = 0; i < 32; ++i) order[i] = i;
        const T* s = src0.ptr_ + uint64_t(r) * 32;
        std::stable_sort(order, order + 32,
                         [s](uint32_t x, uint32_t y) { return static_cast<C>(s[x]) > static_cast<C>(s[y]); });
        for (uint32_t i = 0; i < 32; ++i) {
            uint8_t pair[8] = {0};
            std::memcpy(pair, &s[order[i]], sizeof(T));
            std::memcpy(pair + 4, &src1.ptr_[uint64_t(r) * 32 + order[i]], 4);
            std::memcpy(out + (uint64_t(r) * 32 + i) * 8, pair, 8);
        }
    }
    opkg_sim::mark_written(out, n * 8);
}

}  // namespace AscendC
#endif
