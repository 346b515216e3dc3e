// Vector instructions (level-2 "count" API): tight loops over contiguous UB memory. fp16/bf16
// are computed in float and rounded once per operation, which is what the vector unit does for
// add/sub/mul/div/sqrt (float carries enough bits that the double rounding is exact).
#ifndef OPKG_SIM_VECTOR_H
#define OPKG_SIM_VECTOR_H

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include "opkg_sim/basic_api/core/datacopy.h"
#include "opkg_sim/basic_api/vector/worksize.h"
#include "opkg_sim/basic_api/core/algo_config.h"

namespace opkg_sim {

template <class T>
inline void check_vec(const AscendC::LocalTensor<T>& t, int64_t count, const char* op, const char* role, SrcLoc loc) {
    if (count < 0) fail(loc, format("%s: negative count %lld", op, (long long)count));
    check_ub(t, uint64_t(count) * sizeof(T), op, role, loc);
}

// One count-form vector call of `count` elements of T, for the profile.
template <class T> inline void count_vec_of(const char* op, int64_t count) {
    count_vec(op, uint64_t(count > 0 ? count : 0), uint64_t(count > 0 ? count : 0) * sizeof(T));
}

template <class T, class F>
inline void unary(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, int64_t count, F f,
                  const char* op, SrcLoc loc) {
    check_vec(dst, count, op, "dst", loc);
    check_vec(src, count, op, "src", loc);
    check_read(src.ptr_, uint64_t(count) * sizeof(T), op, "src", loc);
    count_vec_of<T>(op, count);
    const uint64_t bytes = uint64_t(count > 0 ? count : 0) * sizeof(T);
    const std::vector<uint8_t> bits = bitwise_op(op) ? defined_bits(src.ptr_, nullptr, bytes) : std::vector<uint8_t>();
    mark_written(dst.ptr_, bytes);
    T* __restrict d = dst.ptr_;
    const T* s = src.ptr_;
    using C = calc_t<T>;
    for (int64_t i = 0; i < count; ++i) d[i] = static_cast<T>(f(static_cast<C>(s[i])));
    keep_defined_bits(dst.ptr_, bits);
}

// A subnormal of T (|x| below T's smallest normal) as a zero of its sign: the flush-to-zero of
// the 950's *_FTZ_TRUE algorithms.
template <class T, class C>
inline C flush_subnormal(C x) {
    const double tiny = sizeof(T) == 2 && !std::is_same<T, bfloat16_t>::value ? 0x1p-14 : 0x1p-126;
    return (x != C(0) && std::fabs(double(x)) < tiny) ? C(std::signbit(double(x)) ? -0.0 : 0.0) : x;
}

template <class T, class F>
inline void binary(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& a,
                   const AscendC::LocalTensor<T>& b, int64_t count, F f, const char* op, SrcLoc loc) {
    check_vec(dst, count, op, "dst", loc);
    check_vec(a, count, op, "src0", loc);
    check_vec(b, count, op, "src1", loc);
    check_read(a.ptr_, uint64_t(count) * sizeof(T), op, "src0", loc);
    check_read(b.ptr_, uint64_t(count) * sizeof(T), op, "src1", loc);
    count_vec_of<T>(op, count);
    const uint64_t bytes = uint64_t(count > 0 ? count : 0) * sizeof(T);
    const std::vector<uint8_t> bits =
        bitwise_op(op) ? defined_bits(a.ptr_, b.ptr_, bytes, bitwise_kind(op)) : std::vector<uint8_t>();
    mark_written(dst.ptr_, bytes);
    T* d = dst.ptr_;
    const T* x = a.ptr_;
    const T* y = b.ptr_;
    using C = calc_t<T>;
    for (int64_t i = 0; i < count; ++i) d[i] = static_cast<T>(f(static_cast<C>(x[i]), static_cast<C>(y[i])));
    keep_defined_bits(dst.ptr_, bits);
}

// Pairwise tree sum in the operation's precision: the vector unit reduces each 256-byte repeat
// as a tree and then reduces the per-repeat results the same way.
template <class T, class Op>
inline T tree_reduce(const T* p, int64_t n, Op op) {
    using C = calc_t<T>;
    const int64_t per_repeat = 256 / int64_t(sizeof(T)) > 0 ? 256 / int64_t(sizeof(T)) : 1;
    std::vector<T> level;
    level.reserve(size_t((n + per_repeat - 1) / per_repeat));
    T chunk[256];
    for (int64_t start = 0; start < n; start += per_repeat) {
        int64_t m = n - start < per_repeat ? n - start : per_repeat;
        for (int64_t i = 0; i < m; ++i) chunk[i] = p[start + i];
        while (m > 1) {
            int64_t half_m = m / 2;
            for (int64_t i = 0; i < half_m; ++i) {
                chunk[i] = static_cast<T>(op(static_cast<C>(chunk[2 * i]), static_cast<C>(chunk[2 * i + 1])));
            }
            if (m % 2) chunk[half_m] = chunk[m - 1];
            m = half_m + (m % 2);
        }
        level.push_back(chunk[0]);
    }
    while (level.size() > 1) {
        size_t m = level.size(), half_m = m / 2;
        for (size_t i = 0; i < half_m; ++i) {
            level[i] = static_cast<T>(op(static_cast<C>(level[2 * i]), static_cast<C>(level[2 * i + 1])));
        }
        if (m % 2) level[half_m] = level[m - 1];
        level.resize(half_m + (m % 2));
    }
    return level.empty() ? T() : level[0];
}

// The A2/A3 count-form ReduceSum: a tree within each 256-byte repeat, the repeat sums then
// accumulated one after another in the operand precision (documented "mode one").
template <class T>
inline T chained_repeat_sum(const T* p, int64_t n) {
    using C = calc_t<T>;
    const int64_t per_repeat = 256 / int64_t(sizeof(T));
    auto add = [](C a, C b) { return a + b; };
    T acc = tree_reduce(p, n < per_repeat ? n : per_repeat, add);
    for (int64_t start = per_repeat; start < n; start += per_repeat) {
        T part = tree_reduce(p + start, n - start < per_repeat ? n - start : per_repeat, add);
        acc = static_cast<T>(static_cast<C>(acc) + static_cast<C>(part));
    }
    return acc;
}

inline half half_step(half h, bool up) {
    uint16_t u;
    std::memcpy(&u, &h, 2);
    if ((u & 0x7fff) == 0) {
        u = up ? 0x0001 : 0x8001;
    } else if (((u >> 15) == 0) == up) {
        ++u;
    } else {
        --u;
    }
    half r;
    std::memcpy(&r, &u, 2);
    return r;
}

inline half float_to_half(float f, AscendC::RoundMode m) {
    half h = static_cast<half>(f);
    if (std::isnan(f)) return h;
    float back = static_cast<float>(h);
    if (back == f) return h;
    switch (m) {
        case AscendC::RoundMode::CAST_FLOOR: return back > f ? half_step(h, false) : h;
        case AscendC::RoundMode::CAST_CEIL: return back < f ? half_step(h, true) : h;
        case AscendC::RoundMode::CAST_TRUNC: return std::fabs(back) > std::fabs(f) ? half_step(h, back < 0) : h;
        case AscendC::RoundMode::CAST_ODD: {
            uint16_t u;
            std::memcpy(&u, &h, 2);
            return (u & 1) ? h : half_step(h, back < f);
        }
        default: return h;
    }
}

// float -> bf16 with the Cast round modes, on the bits: the upper 16 bits of a float are its
// bf16 truncation toward zero; the lower 16 decide how the chosen mode moves it. CAST_NONE and
// CAST_RINT round to nearest even (bfloat16_t's own conversion).
inline bfloat16_t float_to_bf16(float f, AscendC::RoundMode m) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    bfloat16_t out;
    if (std::isnan(f) || m == AscendC::RoundMode::CAST_NONE || m == AscendC::RoundMode::CAST_RINT) {
        return bfloat16_t(f);
    }
    const uint32_t low = u & 0xffffu;
    const bool negative = (u >> 31) != 0;
    uint32_t t = u >> 16;   // truncated toward zero
    bool away = false;      // one step further from zero
    switch (m) {
        case AscendC::RoundMode::CAST_ROUND: away = low >= 0x8000u; break;
        case AscendC::RoundMode::CAST_FLOOR: away = negative && low != 0; break;
        case AscendC::RoundMode::CAST_CEIL: away = !negative && low != 0; break;
        case AscendC::RoundMode::CAST_ODD: if (low != 0) t |= 1u; break;
        default: break;     // CAST_TRUNC
    }
    if (away) ++t;
    out.bits = static_cast<uint16_t>(t);
    return out;
}

inline double round_with(double v, AscendC::RoundMode m) {
    switch (m) {
        case AscendC::RoundMode::CAST_FLOOR: return std::floor(v);
        case AscendC::RoundMode::CAST_CEIL: return std::ceil(v);
        case AscendC::RoundMode::CAST_ROUND: return std::round(v);
        case AscendC::RoundMode::CAST_TRUNC: return std::trunc(v);
        default: return std::nearbyint(v);
    }
}

template <class D, class S>
inline D convert(S s, AscendC::RoundMode m) {
    if constexpr (std::is_same<D, half>::value && (std::is_same<S, float>::value || std::is_same<S, bfloat16_t>::value)) {
        return float_to_half(static_cast<float>(s), m);
    } else if constexpr (std::is_same<D, AscendC::int4b_t>::value) {
        // to int4 (half -> s4, the quant kernels' Cast): rounded in the mode, saturated to [-8, 7]
        double v = round_with(static_cast<double>(static_cast<float>(s)), m);
        return D(int32_t(std::isnan(v) ? 0 : v <= -8 ? -8 : v >= 7 ? 7 : v));
    } else if constexpr (std::is_same<S, AscendC::int4b_t>::value) {
        return static_cast<D>(static_cast<float>(static_cast<int8_t>(s)));
    } else if constexpr (std::is_integral<D>::value && !std::is_integral<S>::value) {
        double v = round_with(static_cast<double>(static_cast<float>(s)), m);
        if (std::isnan(v)) return D(0);
        if (v <= double(std::numeric_limits<D>::lowest())) return std::numeric_limits<D>::lowest();
        if (v >= double(std::numeric_limits<D>::max())) return std::numeric_limits<D>::max();
        return static_cast<D>(v);
    } else if constexpr (std::is_same<D, bfloat16_t>::value) {
        return float_to_bf16(static_cast<float>(s), m);
    } else if constexpr (std::is_same<S, bfloat16_t>::value) {
        return static_cast<D>(static_cast<float>(s));
    } else if constexpr (std::is_same<D, float>::value && std::is_same<S, float>::value) {
        // float -> float is the vconv_f322f32 rounding family: an integral value in the mode's
        // direction (CAST_ROUND away from zero); CAST_NONE, which the device rejects, copies.
        return m == AscendC::RoundMode::CAST_NONE ? s : static_cast<float>(round_with(s, m));
    } else {
        return static_cast<D>(s);
    }
}

}  // namespace opkg_sim

namespace AscendC {

struct BinaryRepeatParams {
    uint32_t blockNumber = 8;
    uint8_t dstBlkStride = 1, src0BlkStride = 1, src1BlkStride = 1;
    uint8_t dstRepStride = 8, src0RepStride = 8, src1RepStride = 8;
    BinaryRepeatParams() = default;
    BinaryRepeatParams(uint8_t dstBlk, uint8_t src0Blk, uint8_t src1Blk, uint8_t dstRep, uint8_t src0Rep, uint8_t src1Rep)
        : dstBlkStride(dstBlk), src0BlkStride(src0Blk), src1BlkStride(src1Blk),
          dstRepStride(dstRep), src0RepStride(src0Rep), src1RepStride(src1Rep) {}
};

struct UnaryRepeatParams {
    uint32_t blockNumber = 8;
    uint16_t dstBlkStride = 1, srcBlkStride = 1;
    uint8_t dstRepStride = 8, srcRepStride = 8;
    UnaryRepeatParams() = default;
    UnaryRepeatParams(uint16_t dstBlk, uint16_t srcBlk, uint8_t dstRep, uint8_t srcRep)
        : dstBlkStride(dstBlk), srcBlkStride(srcBlk), dstRepStride(dstRep), srcRepStride(srcRep) {}
};

}  // namespace AscendC

namespace opkg_sim {

// The location of a call that came through the exact CANN signature (a function pointer, or a
// const dst): the latest checked API call, marked as approximate in messages.
inline SrcLoc hl_loc() {
    SrcLoc l = block().last;
    return l.file ? l : SrcLoc{"<kernel>", 0};
}

}  // namespace opkg_sim

// Declares one form of an API three times. TPL is the template head, NAME the API, PARAMS the
// parameters after dst (parenthesised), the rest the statement that runs it with `dst` and `loc`
// in scope. Kernels pass APIs as function pointers or template arguments of CANN's exact type (cann-ops'
// foreach templates take `Exp`, `Div`, `Adds`...), which cannot carry a defaulted SrcLoc: the
// `const LocalTensor<T>&` form is that exact one and names the last checked call instead; the
// non-const lvalue and rvalue forms, which ordinary calls pick, take the caller's file:line.
#define OPKG_HL_UNPAREN(...) __VA_ARGS__
#define OPKG_HL_API(TPL, NAME, PARAMS, ...)                                                                    \
    OPKG_HL_UNPAREN TPL inline void NAME(LocalTensor<T>& dst, OPKG_HL_UNPAREN PARAMS,                            \
                                         opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) { __VA_ARGS__; }           \
    OPKG_HL_UNPAREN TPL inline void NAME(LocalTensor<T>&& dst, OPKG_HL_UNPAREN PARAMS,                           \
                                         opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) { __VA_ARGS__; }           \
    OPKG_HL_UNPAREN TPL inline void NAME(const LocalTensor<T>& dst, OPKG_HL_UNPAREN PARAMS) {                    \
        opkg_sim::SrcLoc loc = opkg_sim::hl_loc();                                                               \
        __VA_ARGS__;                                                                                                  \
    }


namespace opkg_sim {

// Level-0 addressing: a repeat covers 8 blocks of 32 bytes; element j of repeat r lives at
// r * repStride * 32 + (j / perBlock) * blkStride * 32 + (j % perBlock) * sizeof(T) bytes.
struct Mask {
    uint64_t lo = 0, hi = 0;
    // Counter mode (SetMaskCount): `counter` elements in all, `per` lanes a repeat; the repeat count
    // follows from them and the last repeat takes the remainder (repeatTimes is not used).
    uint64_t counter = 0;
    uint32_t per = 0;
    bool test(uint32_t j) const { return j < 64 ? ((lo >> j) & 1u) : ((hi >> (j - 64)) & 1u); }
    bool test(uint32_t r, uint32_t j) const { return per ? uint64_t(r) * per + j < counter : test(j); }
    uint32_t reps(uint32_t given) const { return per ? uint32_t((counter + per - 1) / per) : given; }
    // The highest lane the last repeat uses (counter mode: the remainder's).
    uint32_t last() const {
        if (per) return counter ? uint32_t((counter - 1) % per) : 0;
        if (hi) return 127 - uint32_t(__builtin_clzll(hi));
        return lo ? 63 - uint32_t(__builtin_clzll(lo)) : 0;
    }
    uint32_t lanes() const { return uint32_t(__builtin_popcountll(lo) + __builtin_popcountll(hi)); }
};

// One level-0 call (mask x repeatTimes) for the profile.
template <class T> inline void count_level0(const char* op, const Mask& m, uint32_t repeat) {
    uint64_t elements = m.per ? m.counter : uint64_t(m.lanes()) * repeat;
    count_vec(op, elements, elements * sizeof(T), m.reps(repeat));
}

// The mask register as a level-0 call with isSetMask = false reads it: the SetVectorMask value in
// normal mode, the element count in counter mode.
template <class T> inline Mask register_mask(const char* op, SrcLoc loc) {
    const BlockState& b = block();
    Mask k;
    if (b.mask_counter) {
        k.lo = ~0ull;
        k.hi = sizeof(T) == 2 ? ~0ull : 0;
        k.counter = b.mask_lo;
        k.per = 256 / sizeof(T);
        return k;
    }
    k.lo = b.mask_lo;
    k.hi = sizeof(T) == 2 ? b.mask_hi : 0;
    if (!k.lo && !k.hi) {
        fail(loc, format("%s<%s, isSetMask = false>: the mask register (SetVectorMask) selects no element", op,
                         type_name<T>()));
    }
    return k;
}

// A level-0 call that sets the mask itself while the register is in counter mode: the hardware
// would read the lane pattern it writes as an element count.
inline void check_normal_mode(const char* op, SrcLoc loc) {
    if (block().mask_counter) {
        fail(loc, format("%s with isSetMask = true while the mask is in counter mode (SetMaskCount): the call "
                         "writes a lane pattern the vector unit would read as an element count. Pass "
                         "isSetMask = false with MASK_PLACEHOLDER, or call SetMaskNorm first.", op));
    }
}

template <class T, bool isSetMask = true> inline Mask continuous_mask(uint64_t m, const char* op, SrcLoc loc) {
    if constexpr (!isSetMask) return register_mask<T>(op, loc);
    check_normal_mode(op, loc);
    const uint64_t per_repeat = 256 / sizeof(T);
    if (m == 0 || m > per_repeat) {
        fail(loc, format("%s: mask %llu is outside [1, %llu] for %s (elements per 256-byte repeat)", op,
                         (unsigned long long)m, (unsigned long long)per_repeat, type_name<T>()));
    }
    Mask k;
    k.lo = m >= 64 ? ~0ull : ((1ull << m) - 1);
    k.hi = m > 64 ? (m >= 128 ? ~0ull : ((1ull << (m - 64)) - 1)) : 0;
    return k;
}

template <class T, bool isSetMask = true> inline Mask bit_mask(const uint64_t mask[2], const char* op, SrcLoc loc) {
    if constexpr (!isSetMask) return register_mask<T>(op, loc);
    check_normal_mode(op, loc);
    Mask k{mask[0], sizeof(T) == 2 ? mask[1] : 0};
    if (!k.lo && !k.hi) fail(loc, format("%s: the bit mask selects no element", op));
    return k;
}

template <class T> inline uint64_t elem_offset(uint32_t r, uint32_t j, uint32_t blk, uint32_t rep) {
    const uint32_t per_block = 32 / sizeof(T);
    return uint64_t(r) * rep * 32 + uint64_t(j / per_block) * blk * 32 + uint64_t(j % per_block) * sizeof(T);
}

template <class T>
inline void check_level0(const AscendC::LocalTensor<T>& t, const Mask& m, uint32_t repeat, uint32_t blk, uint32_t rep,
                         const char* op, const char* role, SrcLoc loc) {
    repeat = m.reps(repeat);
    uint64_t end = repeat ? elem_offset<T>(repeat - 1, m.last(), blk, rep) + sizeof(T) : 0;
    check_ub(t, end, op, role, loc);
}

// `accumulate` (MulAddDst): dst = f(a, b) rounded to T, plus dst, read at its own strides
template <class T, class F>
inline void level0_binary(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& a,
                          const AscendC::LocalTensor<T>& b, const Mask& m, uint32_t repeat,
                          const AscendC::BinaryRepeatParams& p, F f, const char* op, SrcLoc loc,
                          bool accumulate = false) {
    repeat = m.reps(repeat);   // counter mode: from the element count
    check_level0(dst, m, repeat, p.dstBlkStride, p.dstRepStride, op, "dst", loc);
    check_level0(a, m, repeat, p.src0BlkStride, p.src0RepStride, op, "src0", loc);
    check_level0(b, m, repeat, p.src1BlkStride, p.src1RepStride, op, "src1", loc);
    count_level0<T>(op, m, repeat);
    using C = calc_t<T>;
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr_);
    const uint8_t* x = reinterpret_cast<const uint8_t*>(a.ptr_);
    const uint8_t* y = reinterpret_cast<const uint8_t*>(b.ptr_);
    const uint32_t per_repeat = 256 / sizeof(T);
    const bool bitwise = bitwise_op(op);
    for (uint32_t r = 0; r < repeat; ++r) {
        for (uint32_t j = 0; j < per_repeat; ++j) {
            if (!m.test(r, j)) continue;
            T va, vb;
            const uint8_t* pa = x + elem_offset<T>(r, j, p.src0BlkStride, p.src0RepStride);
            const uint8_t* pb = y + elem_offset<T>(r, j, p.src1BlkStride, p.src1RepStride);
            check_read(pa, sizeof(T), op, "src0", loc);
            check_read(pb, sizeof(T), op, "src1", loc);
            std::memcpy(&va, pa, sizeof(T));
            std::memcpy(&vb, pb, sizeof(T));
            const std::vector<uint8_t> bits =
                bitwise ? defined_bits(pa, pb, sizeof(T), bitwise_kind(op)) : std::vector<uint8_t>();
            T out = static_cast<T>(f(static_cast<C>(va), static_cast<C>(vb)));
            uint8_t* pd = d + elem_offset<T>(r, j, p.dstBlkStride, p.dstRepStride);
            if (accumulate) {
                T vd;
                check_read(pd, sizeof(T), op, "dst", loc);
                std::memcpy(&vd, pd, sizeof(T));
                out = static_cast<T>(static_cast<C>(out) + static_cast<C>(vd));
            }
            std::memcpy(pd, &out, sizeof(T));
            mark_written(pd, sizeof(T));
            keep_defined_bits(pd, bits);
        }
    }
}

template <class T, class F>
inline void level0_unary(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& a, const Mask& m,
                         uint32_t repeat, const AscendC::UnaryRepeatParams& p, F f, const char* op, SrcLoc loc,
                         bool reads = true) {
    repeat = m.reps(repeat);   // counter mode: from the element count
    check_level0(dst, m, repeat, p.dstBlkStride, p.dstRepStride, op, "dst", loc);
    check_level0(a, m, repeat, p.srcBlkStride, p.srcRepStride, op, "src", loc);
    count_level0<T>(op, m, repeat);
    using C = calc_t<T>;
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr_);
    const uint8_t* x = reinterpret_cast<const uint8_t*>(a.ptr_);
    const uint32_t per_repeat = 256 / sizeof(T);
    for (uint32_t r = 0; r < repeat; ++r) {
        for (uint32_t j = 0; j < per_repeat; ++j) {
            if (!m.test(r, j)) continue;
            T va;
            const uint8_t* pa = x + elem_offset<T>(r, j, p.srcBlkStride, p.srcRepStride);
            if (reads) check_read(pa, sizeof(T), op, "src", loc);
            std::memcpy(&va, pa, sizeof(T));
            T out = static_cast<T>(f(static_cast<C>(va)));
            uint8_t* pd = d + elem_offset<T>(r, j, p.dstBlkStride, p.dstRepStride);
            std::memcpy(pd, &out, sizeof(T));
            mark_written(pd, sizeof(T));
        }
    }
}

}  // namespace opkg_sim

namespace AscendC {

#define OPKG_SIM_BINARY(NAME, EXPR)                                                                           \
    OPKG_HL_API((template <class T, bool isSetMask = true>), NAME,                                            \
                (const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t& count),               \
                using C = opkg_sim::calc_t<T>;                                                                \
                opkg_sim::binary(dst, src0, src1, count, [](C a, C b) -> C { return EXPR; }, #NAME, loc))     \
    OPKG_HL_API((template <class T, bool isSetMask = true>), NAME,                                            \
                (const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask,                       \
                 const uint8_t repeatTimes, const BinaryRepeatParams& params),                                \
                using C = opkg_sim::calc_t<T>;                                                                \
                opkg_sim::level0_binary(dst, src0, src1, opkg_sim::continuous_mask<T, isSetMask>(mask, #NAME, loc), \
                                        repeatTimes, params, [](C a, C b) -> C { return EXPR; }, #NAME, loc)) \
    OPKG_HL_API((template <class T, bool isSetMask = true>), NAME,                                            \
                (const LocalTensor<T>& src0, const LocalTensor<T>& src1, const uint64_t mask[2],              \
                 const uint8_t repeatTimes, const BinaryRepeatParams& params),                                \
                using C = opkg_sim::calc_t<T>;                                                                \
                opkg_sim::level0_binary(dst, src0, src1, opkg_sim::bit_mask<T, isSetMask>(mask, #NAME, loc),  \
                                        repeatTimes, params, [](C a, C b) -> C { return EXPR; }, #NAME, loc))

OPKG_SIM_BINARY(Add, a + b)
OPKG_SIM_BINARY(Sub, a - b)
OPKG_SIM_BINARY(Mul, a * b)
OPKG_SIM_BINARY(Max, a > b ? a : b)
OPKG_SIM_BINARY(Min, a < b ? a : b)
OPKG_SIM_BINARY(Div, a / b)
OPKG_SIM_BINARY(And, C(a & b))
OPKG_SIM_BINARY(Or, C(a | b))
OPKG_SIM_BINARY(AddRelu, (a + b) > C(0) ? C(a + b) : C(0))   // relu commutes with rounding to T
OPKG_SIM_BINARY(SubRelu, (a - b) > C(0) ? C(a - b) : C(0))
#undef OPKG_SIM_BINARY


// dst = src0 * src1 + dst
template <class T, class U = T, bool isSetMask = true>
inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                      const int32_t& count, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::check_vec(dst, count, "MulAddDst", "dst", loc);
    opkg_sim::check_vec(src0, count, "MulAddDst", "src0", loc);
    opkg_sim::check_vec(src1, count, "MulAddDst", "src1", loc);
    opkg_sim::check_read(src0.ptr_, uint64_t(count) * sizeof(U), "MulAddDst", "src0", loc);
    opkg_sim::check_read(src1.ptr_, uint64_t(count) * sizeof(U), "MulAddDst", "src1", loc);
    opkg_sim::check_read(dst.ptr_, uint64_t(count) * sizeof(T), "MulAddDst", "dst", loc);
    opkg_sim::mark_written(dst.ptr_, uint64_t(count) * sizeof(T));
    opkg_sim::count_vec_of<T>("MulAddDst", count);
    using C = opkg_sim::calc_t<T>;
    for (int32_t i = 0; i < count; ++i) {
        C prod = static_cast<C>(static_cast<T>(static_cast<C>(src0.ptr_[i]) * static_cast<C>(src1.ptr_[i])));
        dst.ptr_[i] = static_cast<T>(prod + static_cast<C>(dst.ptr_[i]));
    }
}

// The level-0 forms (a mask of lanes and repeats with strides, as the binary ops'): dst, which
// the product is added to, is read at its own strides. dst and the sources of one type only
// here (the devkit's mixed float += half * half form is not modelled).
template <class T, class U = T, bool isSetMask = true>
inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                      uint64_t mask, const uint8_t repeatTimes, const BinaryRepeatParams& params,
                      opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    static_assert(std::is_same<T, U>::value, "MulAddDst's level-0 form: the sim models dst and sources of one type");
    using C = opkg_sim::calc_t<T>;
    opkg_sim::level0_binary(dst, src0, src1, opkg_sim::continuous_mask<T, isSetMask>(mask, "MulAddDst", loc), repeatTimes, params,
                            [](C a, C b) -> C { return a * b; }, "MulAddDst", loc, true);
}
template <class T, class U = T, bool isSetMask = true>
inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                      const uint64_t mask[2], const uint8_t repeatTimes, const BinaryRepeatParams& params,
                      opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    static_assert(std::is_same<T, U>::value, "MulAddDst's level-0 form: the sim models dst and sources of one type");
    using C = opkg_sim::calc_t<T>;
    opkg_sim::level0_binary(dst, src0, src1, opkg_sim::bit_mask<T, isSetMask>(mask, "MulAddDst", loc), repeatTimes, params,
                            [](C a, C b) -> C { return a * b; }, "MulAddDst", loc, true);
}

#define OPKG_SIM_UNARY(NAME, EXPR)                                                                            \
    OPKG_HL_API((template <class T, bool isSetMask = true>), NAME,                                            \
                (const LocalTensor<T>& src, const int32_t& count),                                            \
                using C = opkg_sim::calc_t<T>;                                                                \
                opkg_sim::unary(dst, src, count, [](C x) -> C { return EXPR; }, #NAME, loc))                  \
    OPKG_HL_API((template <class T, bool isSetMask = true>), NAME,                                            \
                (const LocalTensor<T>& src, uint64_t mask, const uint8_t repeatTimes,                         \
                 const UnaryRepeatParams& params),                                                            \
                using C = opkg_sim::calc_t<T>;                                                                \
                opkg_sim::level0_unary(dst, src, opkg_sim::continuous_mask<T, isSetMask>(mask, #NAME, loc),   \
                                       repeatTimes, params, [](C x) -> C { return EXPR; }, #NAME, loc))       \
    OPKG_HL_API((template <class T, bool isSetMask = true>), NAME,                                            \
                (const LocalTensor<T>& src, const uint64_t mask[2], const uint8_t repeatTimes,                \
                 const UnaryRepeatParams& params),                                                            \
                using C = opkg_sim::calc_t<T>;                                                                \
                opkg_sim::level0_unary(dst, src, opkg_sim::bit_mask<T, isSetMask>(mask, #NAME, loc),          \
                                       repeatTimes, params, [](C x) -> C { return EXPR; }, #NAME, loc))

OPKG_SIM_UNARY(Exp, C(std::exp(x)))
OPKG_SIM_UNARY(Ln, C(std::log(x)))
OPKG_SIM_UNARY(Abs, C(x < C(0) ? -x : x))
OPKG_SIM_UNARY(Sqrt, C(std::sqrt(x)))
OPKG_SIM_UNARY(Rsqrt, C(C(1) / C(std::sqrt(x))))
OPKG_SIM_UNARY(Reciprocal, C(C(1) / x))
OPKG_SIM_UNARY(Relu, C(x > C(0) ? x : C(0)))
OPKG_SIM_UNARY(Not, C(~x))
#undef OPKG_SIM_UNARY

#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
// The Ascend 950's Div and Sqrt with an algorithm configuration (`Div<T, config>(dst, a, b,
// count)`). No default for config: the plain forms above stay the ones an unconfigured call picks.
// Every algorithm gives the correctly rounded result (within the 1 ulp the 1-ulp ones promise);
// FTZ_TRUE ones flush subnormals to zero; the 0-ulp ones exist for float only; Sqrt's
// fast-inverse algorithms give 0 above 2^126, as the devkit documents.
OPKG_HL_API((template <class T, const DivConfig& config>), Div,
            (const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t& count),
            static_assert(!opkg_sim::float_only(config.algo) || std::is_same<T, float>::value,
                          "Div: DIFF_COMPENSATION and the 0-ulp algorithms support float only");
            using C = opkg_sim::calc_t<T>;
            opkg_sim::binary(dst, src0, src1, count, [](C a, C b) -> C {
                if (!opkg_sim::ftz(config.algo)) return a / b;
                return opkg_sim::flush_subnormal<T>(C(opkg_sim::flush_subnormal<T>(a) / opkg_sim::flush_subnormal<T>(b)));
            }, "Div", loc))
OPKG_HL_API((template <class T, const SqrtConfig& config>), Sqrt, (const LocalTensor<T>& src, const int32_t& count),
            static_assert(!opkg_sim::float_only(config.algo) || std::is_same<T, float>::value,
                          "Sqrt: FAST_INVERSE and PRECISION_0ULP_FTZ_FALSE support float only");
            using C = opkg_sim::calc_t<T>;
            opkg_sim::unary(dst, src, count, [](C x) -> C {
                if (opkg_sim::float_only(config.algo) && x > C(0x1p126)) return C(0);
                if (opkg_sim::ftz(config.algo)) x = opkg_sim::flush_subnormal<T>(x);
                return C(std::sqrt(x));
            }, "Sqrt", loc))
// Truncate<T, roundMode>: rounds each element to an integral value by roundMode, staying in T
// (half, float, bfloat16; the devkit's kernel_operator_vec_vconv_intf.h).
OPKG_HL_API((template <class T, RoundMode roundMode>), Truncate, (const LocalTensor<T>& src, const uint32_t count),
            static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value ||
                              std::is_same<T, bfloat16_t>::value,
                          "Truncate supports half, float and bfloat16");
            using C = opkg_sim::calc_t<T>;
            opkg_sim::unary(dst, src, int64_t(count), [](C x) -> C {
                return C(opkg_sim::round_with(double(x), roundMode));
            }, "Truncate", loc))
#endif

#define OPKG_SIM_SCALAR(NAME, EXPR)                                                                           \
    OPKG_HL_API((template <class T, bool isSetMask = true>), NAME,                                            \
                (const LocalTensor<T>& src, const typename opkg_sim::identity<T>::type& scalarValue,          \
                 const int32_t& count),                                                                       \
                using C = opkg_sim::calc_t<T>;                                                                \
                const C s = static_cast<C>(scalarValue);                                                      \
                opkg_sim::unary(dst, src, count, [s](C x) -> C { return EXPR; }, #NAME, loc))                 \
    OPKG_HL_API((template <class T, bool isSetMask = true>), NAME,                                            \
                (const LocalTensor<T>& src, const typename opkg_sim::identity<T>::type& scalarValue,          \
                 uint64_t mask, const uint8_t repeatTimes, const UnaryRepeatParams& params),                  \
                using C = opkg_sim::calc_t<T>;                                                                \
                const C s = static_cast<C>(scalarValue);                                                      \
                opkg_sim::level0_unary(dst, src, opkg_sim::continuous_mask<T, isSetMask>(mask, #NAME, loc),   \
                                       repeatTimes, params, [s](C x) -> C { return EXPR; }, #NAME, loc))      \
    OPKG_HL_API((template <class T, bool isSetMask = true>), NAME,                                            \
                (const LocalTensor<T>& src, const typename opkg_sim::identity<T>::type& scalarValue,          \
                 const uint64_t mask[2], const uint8_t repeatTimes, const UnaryRepeatParams& params),         \
                using C = opkg_sim::calc_t<T>;                                                                \
                const C s = static_cast<C>(scalarValue);                                                      \
                opkg_sim::level0_unary(dst, src, opkg_sim::bit_mask<T, isSetMask>(mask, #NAME, loc),          \
                                       repeatTimes, params, [s](C x) -> C { return EXPR; }, #NAME, loc))

OPKG_SIM_SCALAR(Adds, x + s)
OPKG_SIM_SCALAR(Muls, x * s)
OPKG_SIM_SCALAR(Maxs, x > s ? x : s)
OPKG_SIM_SCALAR(Mins, x < s ? x : s)
OPKG_SIM_SCALAR(LeakyRelu, x >= C(0) ? x : C(x * s))
#undef OPKG_SIM_SCALAR

// dst = src * scalar + dst
template <class T, class U = T, bool isSetMask = true>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const typename opkg_sim::identity<U>::type& scalarValue,
                 const int32_t& count, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::check_vec(dst, count, "Axpy", "dst", loc);
    opkg_sim::check_vec(src, count, "Axpy", "src", loc);
    opkg_sim::check_read(src.ptr_, uint64_t(count) * sizeof(U), "Axpy", "src", loc);
    opkg_sim::check_read(dst.ptr_, uint64_t(count) * sizeof(T), "Axpy", "dst", loc);
    opkg_sim::mark_written(dst.ptr_, uint64_t(count) * sizeof(T));
    opkg_sim::count_vec_of<T>("Axpy", count);
    using C = opkg_sim::calc_t<T>;
    const C s = static_cast<C>(static_cast<opkg_sim::calc_t<U>>(scalarValue));
    for (int32_t i = 0; i < count; ++i) {
        C prod = static_cast<C>(static_cast<T>(static_cast<C>(src.ptr_[i]) * s));
        dst.ptr_[i] = static_cast<T>(prod + static_cast<C>(dst.ptr_[i]));
    }
}

// Axpy's level-0 forms (kernel_operator_vec_ternary_scalar_intf.h): dst = src * scalar + dst per
// masked lane, the product rounded to T first as the level-2 form does. dst is both the addend
// (read at the dst strides) and the result. One dtype for src and dst: the half-to-float form
// addresses src at half the dst's block width, which the sim does not model yet.
template <class T, class U>
inline void axpy_level0(const LocalTensor<T>& dst, const LocalTensor<U>& src, U scalarValue, const opkg_sim::Mask& m,
                        uint8_t repeatTimes, const UnaryRepeatParams& p, opkg_sim::SrcLoc loc) {
    static_assert(std::is_same<T, U>::value,
                  "Axpy level 0: the sim models src and dst of one dtype (half or float); the half-to-float form is not modelled");
    static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value, "Axpy supports half and float");
    using C = opkg_sim::calc_t<T>;
    const C s = static_cast<C>(scalarValue);
    const BinaryRepeatParams bp(p.dstBlkStride, p.srcBlkStride, p.dstBlkStride, p.dstRepStride, p.srcRepStride,
                                p.dstRepStride);
    opkg_sim::level0_binary(dst, src, dst, m, repeatTimes, bp,
                            [s](C x, C d) -> C { return static_cast<C>(static_cast<T>(x * s)) + d; }, "Axpy", loc);
}

template <class T, class U, bool isSetMask = true>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const typename opkg_sim::identity<U>::type& scalarValue,
                 uint64_t mask, const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams,
                 opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    axpy_level0(dst, src, static_cast<U>(scalarValue), opkg_sim::continuous_mask<T, isSetMask>(mask, "Axpy", loc),
                repeatTimes, repeatParams, loc);
}

template <class T, class U, bool isSetMask = true>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const typename opkg_sim::identity<U>::type& scalarValue,
                 const uint64_t mask[2], const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams,
                 opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    axpy_level0(dst, src, static_cast<U>(scalarValue), opkg_sim::bit_mask<T, isSetMask>(mask, "Axpy", loc),
                repeatTimes, repeatParams, loc);
}

template <class T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T>& dst, const typename opkg_sim::identity<T>::type& scalarValue,
                      const int32_t& count, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::check_vec(dst, count, "Duplicate", "dst", loc);
    opkg_sim::count_vec_of<T>("Duplicate", count);
    opkg_sim::mark_written(dst.ptr_, uint64_t(count) * sizeof(T));
    const T v = scalarValue;
    T* d = dst.ptr_;
    for (int32_t i = 0; i < count; ++i) d[i] = v;
}

template <class T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T>& dst, const typename opkg_sim::identity<T>::type& scalarValue, uint64_t mask,
                      const uint8_t repeatTimes, const uint16_t dstBlockStride, const uint8_t dstRepeatStride,
                      opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    UnaryRepeatParams p(dstBlockStride, dstBlockStride, dstRepeatStride, dstRepeatStride);
    const T v = scalarValue;
    opkg_sim::level0_unary(dst, dst, opkg_sim::continuous_mask<T, isSetMask>(mask, "Duplicate", loc), repeatTimes, p,
                           [v](opkg_sim::calc_t<T>) { return static_cast<opkg_sim::calc_t<T>>(v); }, "Duplicate", loc,
                           false);
}

}  // namespace AscendC

#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
// The Ascend 950's level-2 tensor-scalar forms (the devkit's kernel_operator_vec_binary_scalar_intf.h)
// where either operand may be the scalar: bitwise Ands/Ors, and Subs/Divs (gelu_quant's
// `Divs(dst, src, scalar, count)`), each computed in the type's calc precision and rounded once.
// The scalar may be a single-point LocalTensor (gelu_quant's `Divs(dst, src, scaleOut[0], n)`):
// BinaryConfig::scalarTensorIndex says which operand it is (1, the default: the right one), and
// its element 0 is read as a scalar read of the UB would be.
namespace AscendC {
struct BinaryConfig {
    int8_t scalarTensorIndex = 1;
};
constexpr BinaryConfig DEFAULT_BINARY_CONFIG = {1};
}  // namespace AscendC
namespace opkg_sim {
template <int8_t scalarIndex, class T, class A, class B, class F>
inline void binary_scalar(const AscendC::LocalTensor<T>& dst, const A& a, const B& b, int32_t count, F f,
                          const char* op, SrcLoc loc) {
    using C = calc_t<T>;
    constexpr bool tensors = std::is_same<A, AscendC::LocalTensor<T>>::value &&
                             std::is_same<B, AscendC::LocalTensor<T>>::value;
    if constexpr (tensors && scalarIndex == 0) {
        const C s = static_cast<C>(a.GetValue(0));
        unary(dst, b, count, [s, f](C x) -> C { return f(s, x); }, op, loc);
    } else if constexpr (tensors) {
        const C s = static_cast<C>(b.GetValue(0));
        unary(dst, a, count, [s, f](C x) -> C { return f(x, s); }, op, loc);
    } else if constexpr (std::is_same<A, AscendC::LocalTensor<T>>::value) {
        const C s = static_cast<C>(b);
        unary(dst, a, count, [s, f](C x) -> C { return f(x, s); }, op, loc);
    } else {
        const C s = static_cast<C>(a);
        unary(dst, b, count, [s, f](C x) -> C { return f(s, x); }, op, loc);
    }
}
template <class T> struct is_sim_float
    : std::integral_constant<bool, std::is_same<T, half>::value || std::is_same<T, float>::value ||
                                       std::is_same<T, bfloat16_t>::value> {};
template <class T> struct is_sim_arith
    : std::integral_constant<bool, std::is_integral<T>::value || is_sim_float<T>::value> {};
}  // namespace opkg_sim

namespace AscendC {
#define OPKG_SIM_BINARY_SCALAR(NAME, KIND, WHAT, EXPR)                                                         \
    template <class T = void, bool isSetMask = true, const BinaryConfig& config = DEFAULT_BINARY_CONFIG,       \
              class U, class S, class V>                                                                       \
    inline void NAME(const U& dst, const S& src0, const V& src1, const int32_t& count,                         \
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {                                     \
        static_assert(KIND<typename U::PrimType>::value, #NAME " takes " WHAT " tensors");                     \
        opkg_sim::binary_scalar<config.scalarTensorIndex>(dst, src0, src1, count, [](auto x, auto y) { return decltype(x)(EXPR); }, #NAME, loc); \
    }
OPKG_SIM_BINARY_SCALAR(Ands, std::is_integral, "integer", x & y)
OPKG_SIM_BINARY_SCALAR(Ors, std::is_integral, "integer", x | y)
OPKG_SIM_BINARY_SCALAR(Subs, opkg_sim::is_sim_arith, "arithmetic", x - y)
// integer Divs (the devkit's floor division) is not emulated: a compile error rather than C's truncation
OPKG_SIM_BINARY_SCALAR(Divs, opkg_sim::is_sim_float, "half, bfloat16 or float", x / y)
#undef OPKG_SIM_BINARY_SCALAR
// Duplicate of a tensor's element 0 (kernel_operator_vec_duplicate_intf.h:82, 950 only: dst[i] =
// src[0]; ops-nn's softmax_grad_ext broadcasts x1[0] over x1 so), src[0] read as the scalar forms
// above read a single-point tensor.
template <class T>
inline void Duplicate(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count,
                      opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    const T v = src.GetValue(0);
    Duplicate(dst, v, count, loc);
}
}  // namespace AscendC
#endif

namespace opkg_sim {

// The comparison of Compare / CompareScalar (count and level-0 forms), in the operation's type.
template <class C> inline bool compare(C x, C y, AscendC::CMPMODE mode) {
    switch (mode) {
        case AscendC::CMPMODE::LT: return x < y;
        case AscendC::CMPMODE::GT: return x > y;
        case AscendC::CMPMODE::EQ: return x == y;
        case AscendC::CMPMODE::LE: return x <= y;
        case AscendC::CMPMODE::GE: return x >= y;
        case AscendC::CMPMODE::NE: return x != y;
    }
    return false;
}

}  // namespace opkg_sim

namespace AscendC {

// Compare writes one bit per element (bit i of byte i / 8), as the hardware's mask layout.
template <class T, class U>
inline void compare_into(const LocalTensor<U>& dst, const T* a, const T* b_or_null, T scalar, CMPMODE mode,
                         uint32_t count, const char* op, opkg_sim::SrcLoc loc) {
    opkg_sim::check_ub(dst, (uint64_t(count) + 7) / 8, op, "dst", loc);
    opkg_sim::count_vec_of<T>(op, count);
    uint8_t* bits = reinterpret_cast<uint8_t*>(dst.ptr_);
    std::memset(bits, 0, (count + 7) / 8);
    opkg_sim::mark_written(bits, (count + 7) / 8);
    using C = opkg_sim::calc_t<T>;
    for (uint32_t i = 0; i < count; ++i) {
        C x = static_cast<C>(a[i]);
        C y = static_cast<C>(b_or_null ? b_or_null[i] : scalar);
        if (opkg_sim::compare(x, y, mode)) bits[i / 8] |= uint8_t(1u << (i % 8));
    }
    opkg_sim::record_mask_bits(bits, count, a, b_or_null, sizeof(T));
}

// Select's definedness per element (opkg_sim::select_shadow), from the operands before dst is
// written (dst may be one of them). src1 null: a scalar.
template <class T, class U>
inline void select_definedness(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const T* src0,
                               const T* src1, uint32_t count, const std::function<void()>& write) {
    const opkg_sim::BlockState& b = opkg_sim::block();
    if (!b.shadow) return write();
    std::vector<uint8_t> mask(count);
    for (uint32_t i = 0; i < count; ++i) mask[i] = opkg_sim::mask_bit_shadow(selMask.ptr_, i);
    std::vector<uint8_t> bits(reinterpret_cast<const uint8_t*>(selMask.ptr_),
                              reinterpret_cast<const uint8_t*>(selMask.ptr_) + (count + 7) / 8);
    const std::vector<uint8_t> s0 = opkg_sim::shadow_of(src0, uint64_t(count) * sizeof(T));
    const std::vector<uint8_t> s1 = src1 ? opkg_sim::shadow_of(src1, uint64_t(count) * sizeof(T)) : std::vector<uint8_t>();
    write();
    opkg_sim::select_shadow(dst.ptr_, count, sizeof(T), bits.data(), mask, s0, s1);
}

template <class T, class U>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                    uint32_t count, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::check_vec(src0, count, "Compare", "src0", loc);
    opkg_sim::check_vec(src1, count, "Compare", "src1", loc);
    opkg_sim::check_read(src0.ptr_, uint64_t(count) * sizeof(T), "Compare", "src0", loc);
    opkg_sim::check_read(src1.ptr_, uint64_t(count) * sizeof(T), "Compare", "src1", loc);
    compare_into(dst, src0.ptr_, src1.ptr_, T(), cmpMode, count, "Compare", loc);
}

// CompareScalar, and Compares, its newer name (the devkit's kernel_operator_vec_cmpsel_intf.h,
// level 2): one tensor against a scalar; `op` names the API the kernel called.
template <class T, class U>
inline void compare_scalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, T scalarValue, CMPMODE cmpMode,
                           uint32_t count, const char* op, opkg_sim::SrcLoc loc) {
    opkg_sim::check_vec(src0, count, op, "src0", loc);
    opkg_sim::check_read(src0.ptr_, uint64_t(count) * sizeof(T), op, "src0", loc);
    compare_into(dst, src0.ptr_, static_cast<const T*>(nullptr), scalarValue, cmpMode, count, op, loc);
}
template <class T, class U>
inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                          const typename opkg_sim::identity<T>::type scalarValue, CMPMODE cmpMode, uint32_t count,
                          opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    compare_scalar(dst, src0, static_cast<T>(scalarValue), cmpMode, count, "CompareScalar", loc);
}
template <class T, class U>
inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                     const typename opkg_sim::identity<T>::type scalarValue, CMPMODE cmpMode, uint32_t count,
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    compare_scalar(dst, src0, static_cast<T>(scalarValue), cmpMode, count, "Compares", loc);
}

template <class T, class U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, SELMODE selMode, uint32_t count,
                   opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::check_vec(dst, count, "Select", "dst", loc);
    opkg_sim::check_vec(src0, count, "Select", "src0", loc);
    opkg_sim::check_vec(src1, count, "Select", "src1", loc);
    opkg_sim::check_ub(selMask, (uint64_t(count) + 7) / 8, "Select", "selMask", loc);
    opkg_sim::check_read(selMask.ptr_, (uint64_t(count) + 7) / 8, "Select", "selMask", loc);
    opkg_sim::check_read(src0.ptr_, uint64_t(count) * sizeof(T), "Select", "src0", loc);
    opkg_sim::check_read(src1.ptr_, uint64_t(count) * sizeof(T), "Select", "src1", loc);
    opkg_sim::count_vec_of<T>("Select", count);
    select_definedness(dst, selMask, src0.ptr_, src1.ptr_, count, [&] {
        opkg_sim::mark_written(dst.ptr_, uint64_t(count) * sizeof(T));
        const uint8_t* bits = reinterpret_cast<const uint8_t*>(selMask.ptr_);
        for (uint32_t i = 0; i < count; ++i) dst.ptr_[i] = ((bits[i / 8] >> (i % 8)) & 1u) ? src0.ptr_[i] : src1.ptr_[i];
    });
}

template <class T, class U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   const typename opkg_sim::identity<T>::type src1, SELMODE selMode, uint32_t count,
                   opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::check_vec(dst, count, "Select", "dst", loc);
    opkg_sim::check_vec(src0, count, "Select", "src0", loc);
    opkg_sim::check_ub(selMask, (uint64_t(count) + 7) / 8, "Select", "selMask", loc);
    opkg_sim::check_read(selMask.ptr_, (uint64_t(count) + 7) / 8, "Select", "selMask", loc);
    opkg_sim::check_read(src0.ptr_, uint64_t(count) * sizeof(T), "Select", "src0", loc);
    opkg_sim::count_vec_of<T>("Select", count);
    select_definedness(dst, selMask, src0.ptr_, static_cast<const T*>(nullptr), count, [&] {
        opkg_sim::mark_written(dst.ptr_, uint64_t(count) * sizeof(T));
        const uint8_t* bits = reinterpret_cast<const uint8_t*>(selMask.ptr_);
        const T other = src1;
        for (uint32_t i = 0; i < count; ++i) dst.ptr_[i] = ((bits[i / 8] >> (i % 8)) & 1u) ? src0.ptr_[i] : other;
    });
}

// Level-0 Select (CANN's vsel): lane j of repeat r takes src0 where its selMask bit is 1, else src1
// (a tensor lane, or the scalar when src1 is null); lanes the mask leaves out keep dst. Which bit:
// mode 0 (VSEL_CMPMASK_SPR) reuses the first 256 / sizeof(T) bits in every repeat, modes 1 and 2
// consume the bits consecutively (repeat r from bit r * 256 / sizeof(T)), as CANN's Select page says.
// Each lane reads only its mask bit and the source it picks, so its definedness is exactly theirs.
template <class T, class U>
inline void level0_select(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& selMask,
                          const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>* src1, T scalar,
                          AscendC::SELMODE selMode, const opkg_sim::Mask& m, uint32_t repeat,
                          const AscendC::BinaryRepeatParams& p, opkg_sim::SrcLoc loc) {
    const char* op = "Select";
    const bool tensor_mode = selMode != AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE;
    if (tensor_mode != (src1 != nullptr)) {
        opkg_sim::fail(loc, src1 ? "Select: VSEL_TENSOR_SCALAR_MODE (mode 1) takes a scalar src1; CANN's tensor form "
                                   "does nothing in that mode"
                                 : "Select with a scalar src1 takes VSEL_TENSOR_SCALAR_MODE (mode 1)");
    }
    repeat = m.reps(repeat);   // counter mode: from the element count
    const uint32_t per_repeat = 256 / sizeof(T);
    const bool same_bits = selMode == AscendC::SELMODE::VSEL_CMPMASK_SPR;
    opkg_sim::check_level0(dst, m, repeat, p.dstBlkStride, p.dstRepStride, op, "dst", loc);
    opkg_sim::check_level0(src0, m, repeat, p.src0BlkStride, p.src0RepStride, op, "src0", loc);
    if (src1) opkg_sim::check_level0(*src1, m, repeat, p.src1BlkStride, p.src1RepStride, op, "src1", loc);
    const uint64_t bits_used = repeat == 0 ? 0 : (same_bits ? per_repeat : uint64_t(repeat) * per_repeat);
    opkg_sim::check_ub(selMask, (bits_used + 7) / 8, op, "selMask", loc);
    opkg_sim::count_level0<T>(op, m, repeat);
    const uint8_t* bits = reinterpret_cast<const uint8_t*>(selMask.ptr_);
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr_);
    for (uint32_t r = 0; r < repeat; ++r) {
        for (uint32_t j = 0; j < per_repeat; ++j) {
            if (!m.test(r, j)) continue;
            const uint32_t bit = same_bits ? j : r * per_repeat + j;
            if (opkg_sim::mask_bit_shadow(bits, bit) != opkg_sim::UB_WRITTEN) {
                opkg_sim::check_read(bits + bit / 8, 1, op, "selMask", loc);
            }
            T out = scalar;
            if ((bits[bit / 8] >> (bit % 8)) & 1u) {
                const uint8_t* ps = reinterpret_cast<const uint8_t*>(src0.ptr_) +
                                    opkg_sim::elem_offset<T>(r, j, p.src0BlkStride, p.src0RepStride);
                opkg_sim::check_read(ps, sizeof(T), op, "src0", loc);
                std::memcpy(&out, ps, sizeof(T));
            } else if (src1) {
                const uint8_t* ps = reinterpret_cast<const uint8_t*>(src1->ptr_) +
                                    opkg_sim::elem_offset<T>(r, j, p.src1BlkStride, p.src1RepStride);
                opkg_sim::check_read(ps, sizeof(T), op, "src1", loc);
                std::memcpy(&out, ps, sizeof(T));
            }
            uint8_t* pd = d + opkg_sim::elem_offset<T>(r, j, p.dstBlkStride, p.dstRepStride);
            std::memcpy(pd, &out, sizeof(T));
            opkg_sim::mark_written(pd, sizeof(T));
        }
    }
}

template <class T, class U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask[], uint8_t repeatTimes,
                   const BinaryRepeatParams& repeatParams, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    level0_select(dst, selMask, src0, &src1, T(), selMode, opkg_sim::bit_mask<T, isSetMask>(mask, "Select", loc),
                  repeatTimes, repeatParams, loc);
}

template <class T, class U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask, uint8_t repeatTimes,
                   const BinaryRepeatParams& repeatParams, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    level0_select(dst, selMask, src0, &src1, T(), selMode,
                  opkg_sim::continuous_mask<T, isSetMask>(mask, "Select", loc), repeatTimes, repeatParams, loc);
}

template <class T, class U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   typename opkg_sim::identity<T>::type src1, SELMODE selMode, uint64_t mask[], uint8_t repeatTimes,
                   const BinaryRepeatParams& repeatParams, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    level0_select(dst, selMask, src0, static_cast<const LocalTensor<T>*>(nullptr), static_cast<T>(src1), selMode,
                  opkg_sim::bit_mask<T, isSetMask>(mask, "Select", loc), repeatTimes, repeatParams, loc);
}

template <class T, class U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   typename opkg_sim::identity<T>::type src1, SELMODE selMode, uint64_t mask, uint8_t repeatTimes,
                   const BinaryRepeatParams& repeatParams, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    level0_select(dst, selMask, src0, static_cast<const LocalTensor<T>*>(nullptr), static_cast<T>(src1), selMode,
                  opkg_sim::continuous_mask<T, isSetMask>(mask, "Select", loc), repeatTimes, repeatParams, loc);
}

// One sum per repeat (the masked elements of 256 bytes), stored dstRepStride results apart.
template <class T>
inline void whole_reduce_sum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const opkg_sim::Mask& m,
                             int32_t repeat, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
                             const char* op, opkg_sim::SrcLoc loc) {
    if (repeat < 0 || repeat > 255) opkg_sim::fail(loc, opkg_sim::format("%s: repeatTimes %d outside [0, 255]", op, repeat));
    repeat = m.reps(repeat);   // counter mode: from the element count
    if (repeat == 0) return;
    opkg_sim::check_level0(src, m, uint8_t(repeat), uint32_t(srcBlkStride), uint32_t(srcRepStride), op, "src", loc);
    uint64_t dst_elems = uint64_t(repeat - 1) * uint64_t(dstRepStride) + 1;
    if (!dst.ptr_) opkg_sim::fail(loc, opkg_sim::format("%s: dst is a LocalTensor that was never allocated", op));
    if (dst_elems > dst.size_) {
        opkg_sim::past_tensor(dst.ptr_, dst_elems * sizeof(T), uint64_t(dst.size_) * sizeof(T),
                              opkg_sim::format("%s: dst needs %llu elements but the LocalTensor holds only %u", op,
                                               (unsigned long long)dst_elems, dst.size_), loc);
    }
    opkg_sim::note(loc);
    opkg_sim::count_level0<T>(op, m, uint32_t(repeat));
    using C = opkg_sim::calc_t<T>;
    const uint8_t* x = reinterpret_cast<const uint8_t*>(src.ptr_);
    const uint32_t per_repeat = 256 / sizeof(T);
    T vals[256];
    for (int32_t r = 0; r < repeat; ++r) {
        int64_t n = 0;
        for (uint32_t j = 0; j < per_repeat; ++j) {
            if (!m.test(r, j)) continue;
            const uint8_t* pa = x + opkg_sim::elem_offset<T>(r, j, srcBlkStride, srcRepStride);
            opkg_sim::check_read(pa, sizeof(T), op, "src", loc);
            std::memcpy(&vals[n++], pa, sizeof(T));
        }
        T sum = opkg_sim::tree_reduce(vals, n, [](C a, C b) { return a + b; });
        dst.ptr_[uint64_t(r) * dstRepStride] = sum;
        opkg_sim::mark_written(dst.ptr_ + uint64_t(r) * dstRepStride, sizeof(T));
    }
}

template <class T, bool isSetMask = true>
inline void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,
                           const int32_t repeatTimes, const int32_t dstRepStride, const int32_t srcBlkStride,
                           const int32_t srcRepStride, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    whole_reduce_sum(dst, src, opkg_sim::continuous_mask<T, isSetMask>(uint64_t(mask), "WholeReduceSum", loc), repeatTimes,
                     dstRepStride, srcBlkStride, srcRepStride, "WholeReduceSum", loc);
}

template <class T, bool isSetMask = true>
inline void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
                           const int32_t repeatTimes, const int32_t dstRepStride, const int32_t srcBlkStride,
                           const int32_t srcRepStride, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    whole_reduce_sum(dst, src, opkg_sim::bit_mask<T, isSetMask>(mask, "WholeReduceSum", loc), repeatTimes, dstRepStride,
                     srcBlkStride, srcRepStride, "WholeReduceSum", loc);
}

template <class T, bool isSetMask = true>
inline void RepeatReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTimes,
                            const int32_t mask, const int32_t dstBlkStride, const int32_t srcBlkStride,
                            const int32_t dstRepStride, const int32_t srcRepStride,
                            opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    (void)dstBlkStride;   // documented as ignored
    whole_reduce_sum(dst, src, opkg_sim::continuous_mask<T, isSetMask>(uint64_t(mask), "RepeatReduceSum", loc), repeatTimes,
                     dstRepStride, srcBlkStride, srcRepStride, "RepeatReduceSum", loc);
}

template <class T, bool isSetMask = true>
inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& workLocal,
                      const int32_t count, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::check_vec(src, count, "ReduceSum", "src", loc);
    // The documented dst alignment is the element's own (2 bytes for half, 4 for float), not 32.
    opkg_sim::check_ub(dst, sizeof(T), "ReduceSum", "dst", loc, sizeof(T));
    if (count <= 0) return;
    opkg_sim::check_work(workLocal, opkg_sim::sum_work_elems<T>(count),
                         [&] { return opkg_sim::format("count %d", count); }, "ReduceSum", loc);
    opkg_sim::check_read(src.ptr_, uint64_t(count) * sizeof(T), "ReduceSum", "src", loc);
    opkg_sim::count_vec_of<T>("ReduceSum", count);
    opkg_sim::mark_written(dst.ptr_, sizeof(T));
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 2201
    dst.ptr_[0] = opkg_sim::chained_repeat_sum(src.ptr_, count);
#else
    using C = opkg_sim::calc_t<T>;
    dst.ptr_[0] = opkg_sim::tree_reduce(src.ptr_, count, [](C a, C b) { return a + b; });
#endif
    // the result register GetAccVal reads (the value's bits in the low bytes)
    opkg_sim::block().acc_val = 0;
    std::memcpy(&opkg_sim::block().acc_val, &dst.ptr_[0], sizeof(T));
    opkg_sim::block().acc_set = true;
}

// The least workLocal (elements) ReduceMax/ReduceMin need, as the Ascend C API reference computes it
// for every SoC in the table: the first round leaves a (value, index) pair per repeat, rounded up to
// 32 bytes; with calIndex each later round keeps its pairs too (the indices are resolved at the end),
// so the rounds add up. firstMaxRepeat is count / elementsPerRepeat as documented (at least one).
template <class T>
inline void reduce_extreme(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
                           int32_t count, bool calIndex, bool is_max, const char* op, opkg_sim::SrcLoc loc) {
    opkg_sim::check_vec(src, count, op, "src", loc);
    // dst alignment as documented: the element's (a value/index pair's with calIndex), not 32 bytes.
    opkg_sim::check_ub(dst, (calIndex ? 2 : 1) * sizeof(T), op, "dst", loc, (calIndex ? 2 : 1) * sizeof(T));
    if (count <= 0) return;
    opkg_sim::check_work(work, opkg_sim::extreme_work_elems<T>(count, calIndex),
                         [&] { return opkg_sim::format("count %d %s calIndex", count, calIndex ? "with" : "without"); },
                         op, loc);
    opkg_sim::check_read(src.ptr_, uint64_t(count) * sizeof(T), op, "src", loc);
    opkg_sim::count_vec_of<T>(op, count);
    opkg_sim::mark_written(dst.ptr_, (calIndex ? 2 : 1) * sizeof(T));
    using C = opkg_sim::calc_t<T>;
    int32_t best = 0;
    C bv = static_cast<C>(src.ptr_[0]);
    for (int32_t i = 1; i < count; ++i) {
        C v = static_cast<C>(src.ptr_[i]);
        if (is_max ? v > bv : v < bv) {
            bv = v;
            best = i;
        }
    }
    dst.ptr_[0] = src.ptr_[best];
    if (calIndex) {
        // The index is stored as raw bits in the element after the value, as the hardware does.
        T slot{};
        uint32_t idx = uint32_t(best);
        std::memcpy(&slot, &idx, sizeof(T) < 4 ? sizeof(T) : 4);
        dst.ptr_[1] = slot;
    }
}

template <class T>
inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& workLocal,
                      const int32_t count, bool calIndex = false, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    reduce_extreme(dst, src, workLocal, count, calIndex, true, "ReduceMax", loc);
}

template <class T>
inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& workLocal,
                      const int32_t count, bool calIndex = false, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    reduce_extreme(dst, src, workLocal, count, calIndex, false, "ReduceMin", loc);
}

template <class D, class S>
inline void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, const RoundMode& mode, const uint32_t count,
                 opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::check_vec(dst, count, "Cast", "dst", loc);
    opkg_sim::check_vec(src, count, "Cast", "src", loc);
    // bytes of `count` elements: int4b_t ones share bytes (opkg_sim::packed_per_byte)
    constexpr uint64_t dPer = opkg_sim::packed_per_byte<D>(), sPer = opkg_sim::packed_per_byte<S>();
    opkg_sim::check_read(src.ptr_, (uint64_t(count) * sizeof(S) + sPer - 1) / sPer, "Cast", "src", loc);
    opkg_sim::count_vec_of<typename std::conditional<(sizeof(D) > sizeof(S)), D, S>::type>("Cast", count);
    opkg_sim::mark_written(dst.ptr_, (uint64_t(count) * sizeof(D) + dPer - 1) / dPer);
    D* d = dst.ptr_;
    const S* s = src.ptr_;
    if constexpr (dPer > 1 || sPer > 1) {
        for (uint32_t i = 0; i < count; ++i) {
            opkg_sim::packed_set(d, i, opkg_sim::convert<D, S>(opkg_sim::packed_get(s, i), mode));
        }
    } else {
        for (uint32_t i = 0; i < count; ++i) d[i] = opkg_sim::convert<D, S>(s[i], mode);
    }
}

}  // namespace AscendC
#endif
