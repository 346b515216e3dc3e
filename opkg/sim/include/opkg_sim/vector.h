// Vector instructions (level-2 "count" API): tight loops over contiguous UB memory. fp16/bf16
// are computed in float and rounded once per operation, which is what the vector unit does for
// add/sub/mul/div/sqrt (float carries enough bits that the double rounding is exact).
#ifndef OPKG_SIM_VECTOR_H
#define OPKG_SIM_VECTOR_H

#include <cmath>
#include <limits>
#include "opkg_sim/datacopy.h"

namespace opkg_sim {

template <class T>
inline void check_vec(const AscendC::LocalTensor<T>& t, int64_t count, const char* op, const char* role, SrcLoc loc) {
    if (count < 0) fail(loc, format("%s: negative count %lld", op, (long long)count));
    check_ub(t, uint64_t(count) * sizeof(T), op, role, loc);
}

template <class T, class F>
inline void unary(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, int64_t count, F f,
                  const char* op, SrcLoc loc) {
    check_vec(dst, count, op, "dst", loc);
    check_vec(src, count, op, "src", loc);
    T* __restrict d = dst.ptr_;
    const T* s = src.ptr_;
    using C = calc_t<T>;
    for (int64_t i = 0; i < count; ++i) d[i] = static_cast<T>(f(static_cast<C>(s[i])));
}

template <class T, class F>
inline void binary(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& a,
                   const AscendC::LocalTensor<T>& b, int64_t count, F f, const char* op, SrcLoc loc) {
    check_vec(dst, count, op, "dst", loc);
    check_vec(a, count, op, "src0", loc);
    check_vec(b, count, op, "src1", loc);
    T* d = dst.ptr_;
    const T* x = a.ptr_;
    const T* y = b.ptr_;
    using C = calc_t<T>;
    for (int64_t i = 0; i < count; ++i) d[i] = static_cast<T>(f(static_cast<C>(x[i]), static_cast<C>(y[i])));
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
    } else if constexpr (std::is_integral<D>::value && !std::is_integral<S>::value) {
        double v = round_with(static_cast<double>(static_cast<float>(s)), m);
        if (std::isnan(v)) return D(0);
        if (v <= double(std::numeric_limits<D>::lowest())) return std::numeric_limits<D>::lowest();
        if (v >= double(std::numeric_limits<D>::max())) return std::numeric_limits<D>::max();
        return static_cast<D>(v);
    } else if constexpr (std::is_same<D, bfloat16_t>::value) {
        return bfloat16_t(static_cast<float>(s));
    } else if constexpr (std::is_same<S, bfloat16_t>::value) {
        return static_cast<D>(static_cast<float>(s));
    } else {
        return static_cast<D>(s);
    }
}

}  // namespace opkg_sim

namespace AscendC {

#define OPKG_SIM_BINARY(NAME, EXPR)                                                                           \
    template <class T, bool isSetMask = true>                                                                 \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,       \
                     const int32_t& count, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {               \
        using C = opkg_sim::calc_t<T>;                                                                        \
        opkg_sim::binary(dst, src0, src1, count, [](C a, C b) -> C { return EXPR; }, #NAME, loc);             \
    }

OPKG_SIM_BINARY(Add, a + b)
OPKG_SIM_BINARY(Sub, a - b)
OPKG_SIM_BINARY(Mul, a * b)
OPKG_SIM_BINARY(Max, a > b ? a : b)
OPKG_SIM_BINARY(Min, a < b ? a : b)
OPKG_SIM_BINARY(And, C(a & b))
OPKG_SIM_BINARY(Or, C(a | b))
#undef OPKG_SIM_BINARY

template <class T, bool isSetMask = true>
inline void Div(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                const int32_t& count, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    using C = opkg_sim::calc_t<T>;
    if constexpr (std::is_integral<T>::value) {
        for (int32_t i = 0; i < count && i < int32_t(src1.size_); ++i) {
            if (src1.ptr_[i] == 0) opkg_sim::fail(loc, opkg_sim::format("Div: integer division by zero at element %d", i));
        }
    }
    opkg_sim::binary(dst, src0, src1, count, [](C a, C b) -> C { return a / b; }, "Div", loc);
}

// dst = src0 * src1 + dst
template <class T, class U = T, bool isSetMask = true>
inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                      const int32_t& count, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::check_vec(dst, count, "MulAddDst", "dst", loc);
    opkg_sim::check_vec(src0, count, "MulAddDst", "src0", loc);
    opkg_sim::check_vec(src1, count, "MulAddDst", "src1", loc);
    using C = opkg_sim::calc_t<T>;
    for (int32_t i = 0; i < count; ++i) {
        C prod = static_cast<C>(static_cast<T>(static_cast<C>(src0.ptr_[i]) * static_cast<C>(src1.ptr_[i])));
        dst.ptr_[i] = static_cast<T>(prod + static_cast<C>(dst.ptr_[i]));
    }
}

#define OPKG_SIM_UNARY(NAME, EXPR)                                                                            \
    template <class T, bool isSetMask = true>                                                                 \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count,              \
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {                                     \
        using C = opkg_sim::calc_t<T>;                                                                        \
        opkg_sim::unary(dst, src, count, [](C x) -> C { return EXPR; }, #NAME, loc);                          \
    }

OPKG_SIM_UNARY(Exp, C(std::exp(x)))
OPKG_SIM_UNARY(Ln, C(std::log(x)))
OPKG_SIM_UNARY(Abs, C(x < C(0) ? -x : x))
OPKG_SIM_UNARY(Sqrt, C(std::sqrt(x)))
OPKG_SIM_UNARY(Rsqrt, C(C(1) / C(std::sqrt(x))))
OPKG_SIM_UNARY(Reciprocal, C(C(1) / x))
OPKG_SIM_UNARY(Relu, C(x > C(0) ? x : C(0)))
OPKG_SIM_UNARY(Not, C(~x))
#undef OPKG_SIM_UNARY

#define OPKG_SIM_SCALAR(NAME, EXPR)                                                                           \
    template <class T, bool isSetMask = true>                                                                 \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                    \
                     const typename opkg_sim::identity<T>::type& scalarValue, const int32_t& count,           \
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {                                     \
        using C = opkg_sim::calc_t<T>;                                                                        \
        const C s = static_cast<C>(scalarValue);                                                              \
        opkg_sim::unary(dst, src, count, [s](C x) -> C { return EXPR; }, #NAME, loc);                         \
    }

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
    using C = opkg_sim::calc_t<T>;
    const C s = static_cast<C>(static_cast<opkg_sim::calc_t<U>>(scalarValue));
    for (int32_t i = 0; i < count; ++i) {
        C prod = static_cast<C>(static_cast<T>(static_cast<C>(src.ptr_[i]) * s));
        dst.ptr_[i] = static_cast<T>(prod + static_cast<C>(dst.ptr_[i]));
    }
}

template <class T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T>& dst, const typename opkg_sim::identity<T>::type& scalarValue,
                      const int32_t& count, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::check_vec(dst, count, "Duplicate", "dst", loc);
    const T v = scalarValue;
    T* d = dst.ptr_;
    for (int32_t i = 0; i < count; ++i) d[i] = v;
}

template <class T, bool isSetMask = true>
inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& workLocal,
                      const int32_t count, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::check_vec(src, count, "ReduceSum", "src", loc);
    opkg_sim::check_vec(dst, 1, "ReduceSum", "dst", loc);
    if (!workLocal.ptr_) opkg_sim::fail(loc, "ReduceSum: workLocal is a LocalTensor that was never allocated");
    using C = opkg_sim::calc_t<T>;
    dst.ptr_[0] = opkg_sim::tree_reduce(src.ptr_, count, [](C a, C b) { return a + b; });
}

template <class T>
inline void reduce_extreme(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
                           int32_t count, bool calIndex, bool is_max, const char* op, opkg_sim::SrcLoc loc) {
    opkg_sim::check_vec(src, count, op, "src", loc);
    opkg_sim::check_vec(dst, calIndex ? 2 : 1, op, "dst", loc);
    if (!work.ptr_) opkg_sim::fail(loc, opkg_sim::format("%s: workLocal is a LocalTensor that was never allocated", op));
    if (count <= 0) return;
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
    D* d = dst.ptr_;
    const S* s = src.ptr_;
    if (mode == RoundMode::CAST_NONE || mode == RoundMode::CAST_RINT) {
        for (uint32_t i = 0; i < count; ++i) d[i] = opkg_sim::convert<D, S>(s[i], RoundMode::CAST_RINT);
    } else {
        for (uint32_t i = 0; i < count; ++i) d[i] = opkg_sim::convert<D, S>(s[i], mode);
    }
}

}  // namespace AscendC
#endif
