// Level-0 reductions per repeat and per 32-byte block: WholeReduceMax/Min (vcmax/vcmin, a value
// and/or its index per repeat, in the ReduceOrder the SoC supports) and BlockReduceSum/Max/Min
// (vcgadd/vcgmax/vcgmin, eight results per repeat). Built on the level-0 addressing of vector.h.
#ifndef OPKG_SIM_REDUCE_H
#define OPKG_SIM_REDUCE_H

#include "opkg_sim/basic_api/vector/vector.h"

namespace AscendC {

enum class ReduceOrder : uint8_t { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };

}  // namespace AscendC

namespace opkg_sim {

inline const char* order_name(AscendC::ReduceOrder o) {
    switch (o) {
        case AscendC::ReduceOrder::ORDER_VALUE_INDEX: return "ORDER_VALUE_INDEX";
        case AscendC::ReduceOrder::ORDER_INDEX_VALUE: return "ORDER_INDEX_VALUE";
        case AscendC::ReduceOrder::ORDER_ONLY_VALUE: return "ORDER_ONLY_VALUE";
        case AscendC::ReduceOrder::ORDER_ONLY_INDEX: return "ORDER_ONLY_INDEX";
    }
    return "?";
}

// The orders each SoC generation's vcmax/vcmin can produce (WholeReduceMax documentation).
inline void check_order(AscendC::ReduceOrder o, const char* op, SrcLoc loc) {
    using O = AscendC::ReduceOrder;
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 1001
    const bool ok = o == O::ORDER_VALUE_INDEX;
    const char* soc = "Atlas training (910A) SoCs support only ORDER_VALUE_INDEX";
#elif defined(__NPU_ARCH__) && __NPU_ARCH__ == 2002
    const bool ok = o == O::ORDER_VALUE_INDEX || o == O::ORDER_INDEX_VALUE;
    const char* soc = "Atlas inference (310P) SoCs support only ORDER_VALUE_INDEX and ORDER_INDEX_VALUE";
#elif defined(__NPU_ARCH__) && __NPU_ARCH__ == 3002
    const bool ok = o == O::ORDER_VALUE_INDEX || o == O::ORDER_ONLY_VALUE;
    const char* soc = "Atlas 200I/500 A2 (310B) SoCs support only ORDER_VALUE_INDEX and ORDER_ONLY_VALUE";
#else
    const bool ok = uint8_t(o) <= uint8_t(O::ORDER_ONLY_INDEX);
    const char* soc = "the order must be one of the four ReduceOrder values";
#endif
    if (!ok) fail(loc, format("%s: ReduceOrder %s (%d) is not available here: %s", op, order_name(o), int(o), soc));
}

inline void check_repeat(int32_t repeat, const char* op, SrcLoc loc) {
    if (repeat < 0 || repeat > 255) fail(loc, format("%s: repeatTimes %d outside [0, 255]", op, repeat));
}

// vcmax/vcmin: per repeat the extreme of the masked lanes and its lane index (the smallest on
// ties). dstRepStride counts results: value+index pairs (2 x sizeof(T)), values (sizeof(T)) or
// uint32 indices (4 bytes), as the ReduceOrder says.
template <class T>
inline void whole_reduce_extreme(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, const Mask& m,
                                 int32_t repeat, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
                                 AscendC::ReduceOrder order, bool is_max, const char* op, SrcLoc loc) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "WholeReduceMax/Min take half or float operands");
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 1001
    static_assert(sizeof(T) == 2, "WholeReduceMax/Min take only half operands on Atlas training (910A) SoCs");
#endif
    using O = AscendC::ReduceOrder;
    check_order(order, op, loc);
    check_repeat(repeat, op, loc);
    repeat = m.reps(repeat);   // counter mode: from the element count
    if (repeat == 0) return;
    count_level0<T>(op, m, uint32_t(repeat));
    if (dstRepStride < 0 || srcBlkStride < 0 || srcRepStride < 0) {
        fail(loc, format("%s: negative stride (dstRepStride %d, srcBlkStride %d, srcRepStride %d)", op, dstRepStride,
                         srcBlkStride, srcRepStride));
    }
    const bool pair = order == O::ORDER_VALUE_INDEX || order == O::ORDER_INDEX_VALUE;
    const uint64_t unit = pair ? 2 * sizeof(T) : order == O::ORDER_ONLY_VALUE ? sizeof(T) : 4;
    const uint64_t align = order == O::ORDER_ONLY_INDEX ? 4 : unit;
    check_level0(src, m, uint8_t(repeat), uint32_t(srcBlkStride), uint32_t(srcRepStride), op, "src", loc);
    check_ub(dst, uint64_t(repeat - 1) * uint64_t(dstRepStride) * unit + unit, op, "dst", loc, align);
    using C = calc_t<T>;
    const uint8_t* x = reinterpret_cast<const uint8_t*>(src.ptr_);
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr_);
    const uint32_t per_repeat = 256 / sizeof(T);
    bool seen = false;   // the call's extreme for GetReduceMaxMinCount: its value, r * per_repeat + lane
    T all_v{};
    uint32_t all_i = 0;
    for (int32_t r = 0; r < repeat; ++r) {
        bool any = false;
        uint32_t best = 0;
        T bv{};
        for (uint32_t j = 0; j < per_repeat; ++j) {
            if (!m.test(r, j)) continue;
            const uint8_t* pa = x + elem_offset<T>(uint32_t(r), j, uint32_t(srcBlkStride), uint32_t(srcRepStride));
            check_read(pa, sizeof(T), op, "src", loc);
            T v;
            std::memcpy(&v, pa, sizeof(T));
            if (!any || (is_max ? static_cast<C>(v) > static_cast<C>(bv) : static_cast<C>(v) < static_cast<C>(bv))) {
                bv = v;
                best = j;
                any = true;
            }
        }
        if (any && (!seen || (is_max ? static_cast<C>(bv) > static_cast<C>(all_v) : static_cast<C>(bv) < static_cast<C>(all_v)))) {
            all_v = bv;
            all_i = uint32_t(r) * per_repeat + best;
            seen = true;
        }
        // The index keeps its integer bits in a T-sized slot (uint16 for half), as the hardware does.
        T idx_slot{};
        std::memcpy(&idx_slot, &best, sizeof(T));
        uint8_t* out = d + uint64_t(r) * uint64_t(dstRepStride) * unit;
        switch (order) {
            case O::ORDER_VALUE_INDEX:
                std::memcpy(out, &bv, sizeof(T));
                std::memcpy(out + sizeof(T), &idx_slot, sizeof(T));
                break;
            case O::ORDER_INDEX_VALUE:
                std::memcpy(out, &idx_slot, sizeof(T));
                std::memcpy(out + sizeof(T), &bv, sizeof(T));
                break;
            case O::ORDER_ONLY_VALUE: std::memcpy(out, &bv, sizeof(T)); break;
            case O::ORDER_ONLY_INDEX: std::memcpy(out, &best, 4); break;
        }
        mark_written(out, order == O::ORDER_ONLY_VALUE ? sizeof(T) : pair ? 2 * sizeof(T) : 4);
    }
    uint32_t bits = 0;
    std::memcpy(&bits, &all_v, sizeof(T));
    block().max_min_cnt = uint64_t(bits) | (uint64_t(all_i) << 32);
    block().max_min_set = true;
}

enum class BlockOp { SUM, MAX, MIN };

// vcgadd/vcgmax/vcgmin: one result per 32-byte block of each repeat, written as eight
// consecutive elements per repeat (dstRepStride counts such groups of eight). Each block reduces
// as a pairwise tree over its lanes; masked-out lanes enter as the identity.
template <class T>
inline void block_reduce(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, const Mask& m,
                         int32_t repeat, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, BlockOp kind,
                         const char* op, SrcLoc loc) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "BlockReduceSum/Max/Min take half or float operands");
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 1001
    static_assert(sizeof(T) == 2, "BlockReduceSum/Max/Min take only half operands on Atlas training (910A) SoCs");
#endif
    check_repeat(repeat, op, loc);
    repeat = m.reps(repeat);   // counter mode: from the element count
    if (repeat == 0) return;
    count_level0<T>(op, m, uint32_t(repeat));
    if (dstRepStride < 0 || srcBlkStride < 0 || srcRepStride < 0) {
        fail(loc, format("%s: negative stride (dstRepStride %d, srcBlkStride %d, srcRepStride %d)", op, dstRepStride,
                         srcBlkStride, srcRepStride));
    }
    const uint32_t per_block = 32 / sizeof(T);
    const uint32_t last_block = m.last() / per_block;
    check_level0(src, m, uint8_t(repeat), uint32_t(srcBlkStride), uint32_t(srcRepStride), op, "src", loc);
    check_ub(dst, (uint64_t(repeat - 1) * uint64_t(dstRepStride) * 8 + last_block + 1) * sizeof(T), op, "dst", loc,
             8 * sizeof(T));
    using C = calc_t<T>;
    const T identity = kind == BlockOp::SUM ? T(0)
                     : kind == BlockOp::MAX ? static_cast<T>(-std::numeric_limits<float>::infinity())
                                            : static_cast<T>(std::numeric_limits<float>::infinity());
    const uint8_t* x = reinterpret_cast<const uint8_t*>(src.ptr_);
    T lanes[16];
    for (int32_t r = 0; r < repeat; ++r) {
        for (uint32_t b = 0; b < 8; ++b) {
            bool any = false;
            for (uint32_t k = 0; k < per_block; ++k) {
                const uint32_t j = b * per_block + k;
                lanes[k] = identity;
                if (!m.test(r, j)) continue;
                const uint8_t* pa = x + elem_offset<T>(uint32_t(r), j, uint32_t(srcBlkStride), uint32_t(srcRepStride));
                check_read(pa, sizeof(T), op, "src", loc);
                std::memcpy(&lanes[k], pa, sizeof(T));
                any = true;
            }
            T* out = dst.ptr_ + uint64_t(r) * uint64_t(dstRepStride) * 8 + b;
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3002
            // 310B writes the identity (±65504 for half max/min) for a block without active lanes.
            if (!any && kind != BlockOp::SUM && sizeof(T) == 2) {
                lanes[0] = static_cast<T>(kind == BlockOp::MAX ? -65504.0f : 65504.0f);
            }
            any = true;
#endif
            if (!any) continue;   // A2/A3: no active lane, no write (dst keeps its data)
            T v;
            switch (kind) {
                case BlockOp::SUM: v = tree_reduce(lanes, per_block, [](C a, C c) { return a + c; }); break;
                case BlockOp::MAX: v = tree_reduce(lanes, per_block, [](C a, C c) { return a > c ? a : c; }); break;
                default: v = tree_reduce(lanes, per_block, [](C a, C c) { return a < c ? a : c; }); break;
            }
            *out = v;
            mark_written(out, sizeof(T));
        }
    }
}

// Level-0 ReduceSum/Max/Min over repeatTime repeats (srcRepStride blocks apart, blocks dense):
// the masked lanes of each repeat reduce as in WholeReduceSum / WholeReduceMax, then the repeat
// results reduce again, a tree for sums; the index of an extreme is r * perRepeat + lane (the
// first on ties). repeatTime may exceed 255 here, as documented.
template <class T>
inline void reduce_level0(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                          const AscendC::LocalTensor<T>& work, const Mask& m, int32_t repeat, int32_t srcRepStride,
                          bool calIndex, BlockOp kind, const char* op, SrcLoc loc) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "ReduceSum/Max/Min take half or float operands");
    if (repeat < 0 || srcRepStride < 0) {
        fail(loc, format("%s: negative repeatTime %d or srcRepStride %d", op, repeat, srcRepStride));
    }
    repeat = m.reps(repeat);   // counter mode: from the element count
    if (repeat == 0) return;
    count_level0<T>(op, m, uint32_t(repeat));
    const bool with_index = kind != BlockOp::SUM && calIndex;
    const uint64_t need = kind == BlockOp::SUM ? sum_work_elems_for<T>(uint64_t(repeat))
                                               : extreme_work_elems_for<T>(uint64_t(repeat), calIndex);
    check_work(work, need, [&] {
        return format("repeatTime %d%s", repeat, kind == BlockOp::SUM ? "" : calIndex ? " with calIndex"
                                                                                      : " without calIndex");
    }, op, loc);
    check_ub(src, elem_offset<T>(uint32_t(repeat - 1), m.last(), 1, uint32_t(srcRepStride)) + sizeof(T), op, "src",
             loc);
    check_ub(dst, (with_index ? 2 : 1) * sizeof(T), op, "dst", loc, with_index ? 2 * sizeof(T) : sizeof(T));
    using C = calc_t<T>;
    const uint8_t* x = reinterpret_cast<const uint8_t*>(src.ptr_);
    const uint32_t per_repeat = 256 / sizeof(T);
    std::vector<T> partial;
    partial.reserve(size_t(repeat));
    T lanes[128];
    bool any = false;
    uint64_t best = 0;
    T bv{};
    for (int32_t r = 0; r < repeat; ++r) {
        int64_t n = 0;
        for (uint32_t j = 0; j < per_repeat; ++j) {
            if (!m.test(r, j)) continue;
            const uint8_t* pa = x + elem_offset<T>(uint32_t(r), j, 1, uint32_t(srcRepStride));
            check_read(pa, sizeof(T), op, "src", loc);
            T v;
            std::memcpy(&v, pa, sizeof(T));
            lanes[n++] = v;
            const bool better = kind == BlockOp::MAX ? static_cast<C>(v) > static_cast<C>(bv)
                                                     : static_cast<C>(v) < static_cast<C>(bv);
            if (kind != BlockOp::SUM && (!any || better)) {
                bv = v;
                best = uint64_t(r) * per_repeat + j;
                any = true;
            }
        }
        if (kind == BlockOp::SUM) partial.push_back(tree_reduce(lanes, n, [](C a, C b) { return a + b; }));
    }
    if (kind == BlockOp::SUM) {
        dst.ptr_[0] = tree_reduce(partial.data(), int64_t(partial.size()), [](C a, C b) { return a + b; });
    } else {
        dst.ptr_[0] = bv;
        if (with_index) {
            // As in the count form: the index's integer bits in the element after the value.
            T slot{};
            const uint32_t idx = uint32_t(best);
            std::memcpy(&slot, &idx, sizeof(T));
            dst.ptr_[1] = slot;
        }
    }
    mark_written(dst.ptr_, (with_index ? 2 : 1) * sizeof(T));
}

}  // namespace opkg_sim

namespace AscendC {

#define OPKG_SIM_WHOLE_REDUCE(NAME, IS_MAX)                                                                       \
    template <class T, bool isSetMask = true>                                                                     \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],                 \
                     const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,             \
                     const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,               \
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {                                         \
        opkg_sim::whole_reduce_extreme(dst, src, opkg_sim::bit_mask<T, isSetMask>(mask, #NAME, loc), repeatTime, dstRepStride, \
                                       srcBlkStride, srcRepStride, order, IS_MAX, #NAME, loc);                     \
    }                                                                                                             \
    template <class T, bool isSetMask = true>                                                                     \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,                    \
                     const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,             \
                     const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,               \
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {                                         \
        opkg_sim::whole_reduce_extreme(dst, src, opkg_sim::continuous_mask<T, isSetMask>(uint64_t(mask), #NAME, loc),         \
                                       repeatTime, dstRepStride, srcBlkStride, srcRepStride, order, IS_MAX, #NAME, \
                                       loc);                                                                       \
    }

OPKG_SIM_WHOLE_REDUCE(WholeReduceMax, true)
OPKG_SIM_WHOLE_REDUCE(WholeReduceMin, false)
#undef OPKG_SIM_WHOLE_REDUCE

// Note the argument order of the BlockReduce family: repeatTime comes before mask.
#define OPKG_SIM_BLOCK_REDUCE(NAME, KIND)                                                                         \
    template <class T, bool isSetMask = true>                                                                     \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,              \
                     const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride,                  \
                     const int32_t srcRepStride, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {             \
        opkg_sim::block_reduce(dst, src, opkg_sim::continuous_mask<T, isSetMask>(uint64_t(mask), #NAME, loc), repeatTime,     \
                               dstRepStride, srcBlkStride, srcRepStride, opkg_sim::BlockOp::KIND, #NAME, loc);     \
    }                                                                                                             \
    template <class T, bool isSetMask = true>                                                                     \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,              \
                     const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,               \
                     const int32_t srcRepStride, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {             \
        opkg_sim::block_reduce(dst, src, opkg_sim::bit_mask<T, isSetMask>(mask, #NAME, loc), repeatTime, dstRepStride,        \
                               srcBlkStride, srcRepStride, opkg_sim::BlockOp::KIND, #NAME, loc);                   \
    }

OPKG_SIM_BLOCK_REDUCE(BlockReduceSum, SUM)
OPKG_SIM_BLOCK_REDUCE(BlockReduceMax, MAX)
OPKG_SIM_BLOCK_REDUCE(BlockReduceMin, MIN)
#undef OPKG_SIM_BLOCK_REDUCE

// Level-0 forms of ReduceSum/Max/Min: mask, repeatTime, srcRepStride, a work buffer.
#define OPKG_SIM_REDUCE_LEVEL0(NAME, KIND)                                                                        \
    template <class T>                                                                                            \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer, \
                     const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride,                     \
                     bool calIndex = 0, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {                      \
        opkg_sim::reduce_level0(dst, src, sharedTmpBuffer, opkg_sim::continuous_mask<T>(uint64_t(mask), #NAME, loc), \
                                repeatTime, srcRepStride, calIndex, opkg_sim::BlockOp::KIND, #NAME, loc);          \
    }                                                                                                             \
    template <class T>                                                                                            \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer, \
                     const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride,                  \
                     bool calIndex = 0, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {                      \
        opkg_sim::reduce_level0(dst, src, sharedTmpBuffer, opkg_sim::bit_mask<T>(mask, #NAME, loc), repeatTime,     \
                                srcRepStride, calIndex, opkg_sim::BlockOp::KIND, #NAME, loc);                      \
    }

OPKG_SIM_REDUCE_LEVEL0(ReduceMax, MAX)
OPKG_SIM_REDUCE_LEVEL0(ReduceMin, MIN)
#undef OPKG_SIM_REDUCE_LEVEL0

template <class T>
inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
                      const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride,
                      opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::reduce_level0(dst, src, sharedTmpBuffer, opkg_sim::continuous_mask<T>(uint64_t(mask), "ReduceSum", loc),
                            repeatTime, srcRepStride, false, opkg_sim::BlockOp::SUM, "ReduceSum", loc);
}

template <class T>
inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
                      const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride,
                      opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::reduce_level0(dst, src, sharedTmpBuffer, opkg_sim::bit_mask<T>(mask, "ReduceSum", loc), repeatTime,
                            srcRepStride, false, opkg_sim::BlockOp::SUM, "ReduceSum", loc);
}

}  // namespace AscendC
#endif
