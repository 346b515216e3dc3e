// The register API's computations (asc-devkit kernel_reg_compute_vec_*_intf.h, maskreg, pack,
// arange, gather_mask): masks, element-wise arithmetic with merge modes, compare and select,
// Cast with its traits, reductions, rearrangements, and the older names ops-nn still spells.
//
// Numerics per element type as the vector unit computes them: half and bfloat16 in float, rounded
// once per operation (to nearest even); integers wrap. Lanes a mask leaves out are zeroed
// (MaskMergeMode::ZEROING, the default) or keep the destination's value (MERGING).
#ifndef OPKG_SIM_REG_COMPUTE_H
#define OPKG_SIM_REG_COMPUTE_H

#include <cfloat>
#include <cmath>
#include <limits>

#include "opkg_sim/basic_api/reg/reg_memory.h"
#include "opkg_sim/basic_api/vector/vector.h"   // compare(), shared with the classic Compare

namespace opkg_sim {
namespace reg {

using AscendC::Reg::CastTrait;
using AscendC::Reg::SatMode;
using AscendC::Reg::RegLayout;

template <class E>
constexpr bool float_like = std::is_floating_point<E>::value || std::is_same<E, half>::value ||
                            std::is_same<E, bfloat16_t>::value;
// The type an element is computed in.
template <class E>
using calc_t = typename std::conditional<std::is_same<E, double>::value, double,
                                         typename std::conditional<float_like<E>, float, E>::type>::type;

template <class E, class C>
inline E to_elem(C c) {
    if constexpr (std::is_same<E, bfloat16_t>::value) return bfloat16_t(float(c));
    else return static_cast<E>(c);
}

// Integer arithmetic wraps, as on the device (and without C++'s signed-overflow UB).
template <class C>
inline C wrap_add(C x, C y) {
    if constexpr (std::is_integral<C>::value) return C(typename std::make_unsigned<C>::type(x) + typename std::make_unsigned<C>::type(y));
    else return x + y;
}
template <class C>
inline C wrap_sub(C x, C y) {
    if constexpr (std::is_integral<C>::value) return C(typename std::make_unsigned<C>::type(x) - typename std::make_unsigned<C>::type(y));
    else return x - y;
}
template <class C>
inline C wrap_mul(C x, C y) {
    if constexpr (std::is_integral<C>::value) return C(typename std::make_unsigned<C>::type(x) * typename std::make_unsigned<C>::type(y));
    else return x * y;
}

// Lane i of the destination: f of the sources' lane i where the mask selects it.
template <MaskMergeMode M, class D, class F, class... S>
inline void lanes(D& d, MaskReg& m, const char* op, SrcLoc loc, F f, S&... s) {
    using E = typename D::ActualT;
    note(loc);
    (read_reg(s, op, loc), ...);
    use_mask(m, D::STEP, op, loc);
    constexpr bool merge = M == MaskMergeMode::MERGING;
    if (merge) read_reg(d, op, loc);
    const bool track = (s.dirty || ...) || (merge && d.dirty);
    if (!track) {
        for (uint32_t i = 0; i < D::LANES; ++i) {
            if (bit(m, i * D::STEP)) d.v[i] = f(s.v[i]...);
            else if (!merge) d.v[i] = E();
        }
        d.dirty = false;
        d.written = true;
        return;
    }
    const bool was = d.dirty;
    bool dirty = false;
    for (uint32_t i = 0; i < D::LANES; ++i) {
        uint8_t u = 0;
        if (bit(m, i * D::STEP)) {
            ((u = u ? u : (s.dirty ? s.undef[i] : uint8_t(0))), ...);
            d.v[i] = f(s.v[i]...);
        } else if (!merge) {
            d.v[i] = E();
        } else {
            u = was ? d.undef[i] : 0;
        }
        d.undef[i] = u;
        dirty |= u != 0;
    }
    d.dirty = dirty;
    d.written = true;
}

template <MaskMergeMode M, class R, class Op>
inline void unary(R& d, R& a, MaskReg& m, const char* op, SrcLoc loc, Op f) {
    using E = typename R::ActualT;
    using C = calc_t<E>;
    lanes<M>(d, m, op, loc, [&](E x) { return to_elem<E>(f(C(x))); }, a);
}
template <MaskMergeMode M, class R, class Op>
inline void binary(R& d, R& a, R& b, MaskReg& m, const char* op, SrcLoc loc, Op f) {
    using E = typename R::ActualT;
    using C = calc_t<E>;
    lanes<M>(d, m, op, loc, [&](E x, E y) { return to_elem<E>(f(C(x), C(y))); }, a, b);
}

// A mask of the first n elements of `step`-byte elements.
inline MaskReg prefix_mask(uint32_t n, uint32_t step) {
    MaskReg m;
    for (uint32_t i = 0; i < n && i * step < 256; ++i) set_bit(m, i * step, true);
    m.set = true;
    m.width = uint8_t(step);
    return m;
}

template <class R, class S>
inline void cmp_into(MaskReg& dst, R& a, MaskReg& m, const char* op, SrcLoc loc, S pred) {
    note(loc);
    read_reg(a, op, loc);
    use_mask(m, R::STEP, op, loc);
    MaskReg out;
    for (uint32_t i = 0; i < R::LANES; ++i) {
        if (bit(m, i * R::STEP) && pred(i)) set_bit(out, i * R::STEP, true);
    }
    out.set = true;
    out.width = uint8_t(R::STEP);
    dst = out;
}

// ---- Cast numerics
template <class T>
inline T step_ulp(T x, int dir) {   // the neighbour of x toward +inf (dir > 0) or -inf
    using B = typename std::conditional<sizeof(T) == 2, uint16_t, uint32_t>::type;
    B b;
    std::memcpy(&b, static_cast<const void*>(&x), sizeof b);
    const B sign = B(B(1) << (8 * sizeof(T) - 1));
    if ((b & B(~sign)) == 0) b = B(dir > 0 ? 1 : sign | 1);
    else if (((b & sign) == 0) == (dir > 0)) ++b;
    else --b;
    T r;
    std::memcpy(static_cast<void*>(&r), &b, sizeof r);
    return r;
}
template <class T>
inline T max_finite() {
    if constexpr (std::is_same<T, half>::value) return half(65504.0f);
    else if constexpr (std::is_same<T, bfloat16_t>::value) {
        bfloat16_t r;
        r.bits = 0x7f7f;
        return r;
    } else return std::numeric_limits<T>::max();
}

// d rounded to the float type T by `rm`; overflow saturates under SatMode::SAT.
template <class T>
inline T to_float_type(double d, AscendC::RoundMode rm, SatMode sat) {
    using AscendC::RoundMode;
    if constexpr (std::is_same<T, hifloat8_t>::value) {
        // ties away from zero for CAST_ROUND and CAST_HYBRID alike (lowfloat.h says why)
        return hifloat8_t::from_bits(opkg_sim::hifloat8_format::from_double(d, sat == SatMode::SAT));
    } else if constexpr (std::is_same<T, fp8_e4m3fn_t>::value || std::is_same<T, fp8_e5m2_t>::value ||
                  std::is_same<T, fp8_e8m0_t>::value) {
        // 8-bit floats: to nearest even (other rounding modes not emulated); SAT clamps, NaN -> 0.
        if (sat == SatMode::SAT) {
            if (std::isnan(d)) return T(0.0f);
            const double mx = std::is_same<T, fp8_e4m3fn_t>::value ? 448.0 : std::is_same<T, fp8_e5m2_t>::value ? 57344.0 : 1.7014118346046923e38;
            d = d > mx ? mx : d < -mx ? -mx : d;
        }
        return T(float(d));
    } else {
        T r0 = to_elem<T>(d);
        if (std::isfinite(d) && !std::isfinite(double(calc_t<T>(r0)))) {
            return sat == SatMode::SAT ? (d > 0 ? max_finite<T>() : to_elem<T>(-double(calc_t<T>(max_finite<T>())))) : r0;
        }
        const double a = double(calc_t<T>(r0));
        if (!std::isfinite(d) || a == d) return r0;
        switch (rm) {
            case RoundMode::CAST_FLOOR: case RoundMode::CAST_CEIL: case RoundMode::CAST_TRUNC: case RoundMode::CAST_ZERO:
            case RoundMode::CAST_ROUND: case RoundMode::CAST_ODD: break;
            default: return r0;   // RINT, EVEN, NONE, HYBRID (as RINT), UNKNOWN: to nearest even
        }
        const T r1 = step_ulp(r0, a > d ? -1 : 1);
        const double c = double(calc_t<T>(r1));
        const T lo = a < c ? r0 : r1, hi = a < c ? r1 : r0;
        const double dl = d - std::min(a, c), dh = std::max(a, c) - d;
        switch (rm) {
            case RoundMode::CAST_FLOOR: return lo;
            case RoundMode::CAST_CEIL: return hi;
            case RoundMode::CAST_TRUNC: case RoundMode::CAST_ZERO: return d > 0 ? lo : hi;
            case RoundMode::CAST_ROUND: return dl == dh ? (d > 0 ? hi : lo) : r0;
            default: {   // CAST_ODD: the neighbour whose last bit is 1
                uint32_t b = 0;
                std::memcpy(&b, &r0, sizeof(T));
                return (b & 1) ? r0 : r1;
            }
        }
    }
}

template <class T>
inline T to_int_type(double d, AscendC::RoundMode rm, SatMode sat, bool from_float) {
    using AscendC::RoundMode;
    if (std::isnan(d)) return T(0);
    if (from_float) {
        switch (rm) {
            case RoundMode::CAST_FLOOR: d = std::floor(d); break;
            case RoundMode::CAST_CEIL: d = std::ceil(d); break;
            case RoundMode::CAST_ROUND: d = std::round(d); break;
            case RoundMode::CAST_TRUNC: case RoundMode::CAST_ZERO: d = std::trunc(d); break;
            default: d = std::nearbyint(d); break;
        }
    }
    const double lo = double(std::numeric_limits<T>::lowest()), hi = double(std::numeric_limits<T>::max());
    // Float to integer saturates unless NO_SAT; integer to integer truncates unless SAT.
    const bool saturate = from_float ? sat != SatMode::NO_SAT : sat == SatMode::SAT;
    if (saturate) {
        if (d <= lo) return std::numeric_limits<T>::lowest();
        if (d >= hi) return std::numeric_limits<T>::max();
        return T(d);
    }
    if (d >= 9.2233720368547758e18 || d < -9.2233720368547758e18) return T(0);
    return T(uint64_t(int64_t(d)));
}

template <class T, class U>
inline T convert(U x, AscendC::RoundMode rm, SatMode sat) {
    if constexpr (std::is_integral<T>::value && std::is_integral<U>::value) {
        if (sat == SatMode::SAT) return to_int_type<T>(double(x), rm, sat, false);
        return T(x);   // truncating (two's complement)
    } else if constexpr (std::is_integral<T>::value) {
        return to_int_type<T>(double(float(x)), rm, sat, true);
    } else if constexpr (std::is_integral<U>::value) {
        return to_float_type<T>(double(x), rm, sat);
    } else {
        return to_float_type<T>(double(float(x)), rm, sat == SatMode::UNKNOWN ? SatMode::NO_SAT : sat);
    }
}

template <class D, class S>
inline void set_lane_origin(D& d, uint32_t i, const S& s, uint32_t j, bool& dirty) {
    const uint8_t u = s.dirty ? s.undef[j] : 0;
    d.undef[i] = u;
    dirty |= u != 0;
}

// The packed 4-bit element types: a byte holds two elements, the first in the low nibble.
template <class E>
constexpr bool nibble_pair = std::is_same<E, int4x2_t>::value || std::is_same<E, fp4x2_e2m1_t>::value ||
                             std::is_same<E, fp4x2_e1m2_t>::value;

// One 4-bit element of P from x, rounded by `rm`. int4: saturating to -8..7 under SAT, else the
// low 4 bits of the rounded integer (+-inf give the extremes, NaN 0), as the Cast page's table of
// float-to-integer modes says. fp4: the signed maximum for overflow and inf, 0 for NaN, each
// rounding mode picking between the two neighbouring codes.
template <class P>
inline uint8_t nibble_of(double x, AscendC::RoundMode rm, SatMode sat) {
    using AscendC::RoundMode;
    if constexpr (std::is_same<P, int4x2_t>::value) {
        if (std::isnan(x)) return 0;
        if (std::isinf(x)) return x > 0 ? 0x7 : 0x8;
        const int64_t v = int64_t(to_int_type<int64_t>(x, rm, SatMode::SAT, true));
        if (sat == SatMode::SAT) return uint8_t((v < -8 ? -8 : v > 7 ? 7 : v) & 0xf);
        return uint8_t(uint64_t(v) & 0xf);
    } else {
        using F = typename std::conditional<std::is_same<P, fp4x2_e2m1_t>::value, opkg_sim::fmt_e2m1,
                                            opkg_sim::fmt_e1m2>::type;
        if (std::isnan(x)) return 0;
        const uint8_t sign = std::signbit(x) ? 0x8 : 0;
        const double a = std::fabs(x);
        uint8_t lo = 0;                                  // the largest code whose value <= a
        for (uint8_t c = 1; c < 8; ++c) if (double(F::to_float(c)) <= a) lo = c;
        if (lo == 7 || double(F::to_float(lo)) == a) return uint8_t(lo | sign);
        const uint8_t hi = uint8_t(lo + 1);
        const double dl = a - double(F::to_float(lo)), dh = double(F::to_float(hi)) - a;
        const bool neg = sign != 0;
        uint8_t c;
        switch (rm) {
            case RoundMode::CAST_FLOOR: c = neg ? hi : lo; break;
            case RoundMode::CAST_CEIL: c = neg ? lo : hi; break;
            case RoundMode::CAST_TRUNC: case RoundMode::CAST_ZERO: c = lo; break;
            case RoundMode::CAST_ROUND: c = dl < dh ? lo : hi; break;
            default: c = dl < dh ? lo : dh < dl ? hi : ((lo & 1) ? hi : lo); break;   // to nearest even
        }
        return uint8_t(c | sign);
    }
}

template <class P>
inline double nibble_value(uint8_t nib) {
    if constexpr (std::is_same<P, int4x2_t>::value) return double(int(nib & 0x7) - int(nib & 0x8));
    else if constexpr (std::is_same<P, fp4x2_e2m1_t>::value) return double(opkg_sim::fmt_e2m1::to_float(nib));
    else return double(opkg_sim::fmt_e1m2::to_float(nib));
}

// Casts between a packed 4-bit type and a 16-bit one (the Cast page: "every 2 elements are read
// and written as a pair; narrowing takes the mask's even positions"): 16-bit elements 2p and
// 2p+1 are the low and high nibble of the byte in slot 4p + layout of the 8-bit register.
template <class DT, class ST, ConfigCode code, class D, class S>
inline void cast_nibble_pairs(D& d, S& s, MaskReg& m, uint32_t lay, bool& dirty, SrcLoc loc) {
    constexpr CastTrait tr = CastTrait::from_code(code);
    const char* op = "Cast";
    if (lay >= 4) fail(loc, format("Cast: RegLayout %u does not exist for a packed 4-bit cast", lay));
    if constexpr (nibble_pair<DT>) {
        static_assert(sizeof(ST) == 2, "Reg::Cast: a packed 4-bit type converts from a 16-bit type");
        use_mask(m, S::STEP, op, loc);
        for (uint32_t p = 0; 2 * p + 1 < S::LANES; ++p) {
            if (!bit(m, 2 * p * S::STEP)) continue;
            const uint8_t b = uint8_t(nibble_of<DT>(double(float(s.v[2 * p])), tr.roundMode, tr.satMode) |
                                      (nibble_of<DT>(double(float(s.v[2 * p + 1])), tr.roundMode, tr.satMode) << 4));
            std::memcpy(static_cast<void*>(&d.v[4 * p + lay]), &b, 1);
            set_lane_origin(d, 4 * p + lay, s, 2 * p, dirty);
        }
    } else {
        static_assert(sizeof(DT) == 2, "Reg::Cast: a packed 4-bit type converts to a 16-bit type");
        use_mask(m, D::STEP, op, loc);
        for (uint32_t p = 0; 2 * p + 1 < D::LANES; ++p) {
            uint8_t b = 0;
            std::memcpy(&b, static_cast<const void*>(&s.v[4 * p + lay]), 1);
            for (uint32_t k = 0; k < 2; ++k) {
                if (!bit(m, (2 * p + k) * D::STEP)) continue;
                d.v[2 * p + k] = to_elem<DT>(float(nibble_value<ST>(uint8_t(k ? b >> 4 : b & 0xf))));
                set_lane_origin(d, 2 * p + k, s, 4 * p + lay, dirty);
            }
        }
    }
}

// Cast element by element (every pair of types but the packed 4-bit ones): same widths lane to
// lane; widening reads source slot r*i + layout; narrowing writes destination slot r*i + layout.
template <class DT, class ST, ConfigCode code, class D, class S>
inline void cast_elements(D& d, S& s, MaskReg& m, uint32_t lay, bool& dirty, SrcLoc loc) {
    constexpr CastTrait tr = CastTrait::from_code(code);
    const char* op = "Cast";
    auto conv = [&](ST x) { return convert<DT, ST>(x, tr.roundMode, tr.satMode); };
    if (D::LANES == S::LANES) {
        use_mask(m, D::STEP, op, loc);
        for (uint32_t i = 0; i < D::LANES; ++i) {
            if (!bit(m, i * D::STEP)) continue;
            d.v[i] = conv(ST(s.v[i]));
            set_lane_origin(d, i, s, i, dirty);
        }
    } else if (D::LANES < S::LANES) {   // widening: source slot r*i + layout
        constexpr uint32_t r = S::LANES / D::LANES;
        use_mask(m, D::STEP, op, loc);
        if (lay >= r) fail(loc, format("Cast: RegLayout %u does not exist for a 1:%u widening", lay, r));
        for (uint32_t i = 0; i < D::LANES; ++i) {
            if (!bit(m, i * D::STEP)) continue;
            d.v[i] = conv(ST(s.v[r * i + lay]));
            set_lane_origin(d, i, s, r * i + lay, dirty);
        }
    } else {   // narrowing: into destination slot r*i + layout, the other slots zero
        constexpr uint32_t r = D::LANES / S::LANES;
        use_mask(m, S::STEP, op, loc);
        if (lay >= r) fail(loc, format("Cast: RegLayout %u does not exist for a %u:1 narrowing", lay, r));
        for (uint32_t i = 0; i < S::LANES; ++i) {
            if (!bit(m, i * S::STEP)) continue;
            d.v[r * i + lay] = conv(ST(s.v[i]));
            set_lane_origin(d, r * i + lay, s, i, dirty);
        }
    }
}

template <class T, class U, ConfigCode code, class D, class S>
inline void cast(D& d, S& s, MaskReg& m, SrcLoc loc) {
    constexpr CastTrait tr = CastTrait::from_code(code);
    using DT = elem_t<T, D>;
    using ST = elem_t<U, S>;
    static_assert(sizeof(DT) == sizeof(typename D::ActualT) && sizeof(ST) == sizeof(typename S::ActualT),
                  "Reg::Cast: the template types must match the registers' element widths");
    const char* op = "Cast";
    note(loc);
    read_reg(s, op, loc);
    const bool merge = tr.mrgMode == MaskMergeMode::MERGING;
    if (merge) read_reg(d, op, loc);
    const uint32_t lay = tr.layoutMode == RegLayout::UNKNOWN ? 0 : uint32_t(tr.layoutMode);
    bool dirty = merge && d.dirty;
    if (!merge) {
        std::memset(static_cast<void*>(d.v), 0, sizeof d.v);
        std::memset(d.undef, 0, sizeof d.undef);
    } else if (!d.dirty) {
        std::memset(d.undef, 0, sizeof d.undef);
    }
    if constexpr (nibble_pair<DT> || nibble_pair<ST>) {
        cast_nibble_pairs<DT, ST, code>(d, s, m, lay, dirty, loc);
    } else {
        cast_elements<DT, ST, code>(d, s, m, lay, dirty, loc);
    }
    d.dirty = dirty;
    d.written = true;
}

// Reductions: over the selected lanes of each group of `group` lanes, into lane g of dst.
template <AscendC::ReduceType type, AscendC::Reg::MaskMergeMode M, class D, class S>
inline void reduce(D& d, S& s, MaskReg& m, uint32_t group, const char* op, SrcLoc loc) {
    using SE = typename S::ActualT;
    using DE = typename D::ActualT;
    using A = typename std::conditional<float_like<SE>, double, typename std::conditional<std::is_signed<SE>::value, int64_t, uint64_t>::type>::type;
    note(loc);
    read_reg(s, op, loc);
    use_mask(m, S::STEP, op, loc);
    if (M == MaskMergeMode::MERGING) read_reg(d, op, loc);
    else {
        std::memset(static_cast<void*>(d.v), 0, sizeof d.v);
        std::memset(d.undef, 0, sizeof d.undef);
        d.dirty = false;
    }
    if (!d.dirty) std::memset(d.undef, 0, sizeof d.undef);
    bool dirty = d.dirty;
    for (uint32_t g = 0; g * group < S::LANES && g < D::LANES; ++g) {
        A acc = type == AscendC::ReduceType::SUM ? A(0)
                : type == AscendC::ReduceType::MAX ? A(std::numeric_limits<A>::lowest()) : A(std::numeric_limits<A>::max());
        if (float_like<SE> && type == AscendC::ReduceType::MAX) acc = A(-INFINITY);
        if (float_like<SE> && type == AscendC::ReduceType::MIN) acc = A(INFINITY);
        uint8_t u = 0;
        bool any = false;
        // A pairwise tree over the group (unselected lanes contribute nothing), in the register's
        // precision for float: sum order as a reduction tree, not left to right.
        calc_t<SE> tree[256];
        uint32_t n = 0;
        for (uint32_t i = g * group; i < (g + 1) * group && i < S::LANES; ++i) {
            if (!bit(m, i * S::STEP)) continue;
            any = true;
            if (s.dirty && s.undef[i] && !u) u = s.undef[i];
            const calc_t<SE> x = calc_t<SE>(s.v[i]);
            if (type == AscendC::ReduceType::SUM) tree[n++] = x;
            else if (type == AscendC::ReduceType::MAX) acc = A(x) > acc || std::isnan(double(x)) ? A(x) : acc;
            else acc = A(x) < acc || std::isnan(double(x)) ? A(x) : acc;
        }
        if (type == AscendC::ReduceType::SUM) {
            if constexpr (float_like<SE>) {
                while (n > 1) {
                    uint32_t k = 0;
                    for (uint32_t i = 0; i + 1 < n; i += 2) tree[k++] = tree[i] + tree[i + 1];
                    if (n % 2) tree[k++] = tree[n - 1];
                    n = k;
                }
                acc = n ? A(tree[0]) : A(0);
            } else {
                for (uint32_t i = 0; i < n; ++i) acc = wrap_add(acc, A(tree[i]));
            }
        }
        if (!any && type != AscendC::ReduceType::SUM) acc = A(0);
        d.v[g] = to_elem<DE>(calc_t<DE>(acc));
        d.undef[g] = u;
        dirty |= u != 0;
    }
    d.dirty = dirty;
    d.written = true;
}

}  // namespace reg
}  // namespace opkg_sim

namespace AscendC {
namespace Reg {

using opkg_sim::reg::calc_t;

// ---- masks
template <typename T, MaskPattern mode = MaskPattern::ALL, const RegTrait& regTrait = RegTraitNumOne>
inline MaskReg CreateMask() {
    constexpr uint32_t step = sizeof(T) / regTrait.REG_NUM ? sizeof(T) / regTrait.REG_NUM : 1;
    constexpr uint32_t lanes = VECTOR_REG_WIDTH / step;
    uint32_t n = lanes;
    switch (mode) {
        case MaskPattern::ALL: n = lanes; break;
        case MaskPattern::ALLF: n = 0; break;
        case MaskPattern::VL1: n = 1; break;
        case MaskPattern::VL2: n = 2; break;
        case MaskPattern::VL3: n = 3; break;
        case MaskPattern::VL4: n = 4; break;
        case MaskPattern::VL8: n = 8; break;
        case MaskPattern::VL16: n = 16; break;
        case MaskPattern::VL32: n = 32; break;
        case MaskPattern::VL64: n = 64; break;
        case MaskPattern::VL128: n = 128; break;
        case MaskPattern::M3: n = lanes / 3 * 3; break;
        case MaskPattern::M4: n = lanes / 4 * 4; break;
        case MaskPattern::H: n = lanes / 2; break;
        case MaskPattern::Q: n = lanes / 4; break;
    }
    return opkg_sim::reg::prefix_mask(n < lanes ? n : lanes, step);
}
template <typename T, const RegTrait& regTrait = RegTraitNumOne>
inline MaskReg UpdateMask(uint32_t& scalarValue) {
    constexpr uint32_t step = sizeof(T) / regTrait.REG_NUM ? sizeof(T) / regTrait.REG_NUM : 1;
    constexpr uint32_t lanes = VECTOR_REG_WIDTH / step;
    const uint32_t n = scalarValue < lanes ? scalarValue : lanes;
    scalarValue -= n;
    return opkg_sim::reg::prefix_mask(n, step);
}

#define OPKG_MASK_OP(NAME, EXPR)                                                                   \
    inline void NAME(MaskReg& dst, MaskReg& src0, MaskReg& src1, MaskReg& mask, OPKG_REG_LOC) {   \
        opkg_sim::note(loc);                                                                       \
        opkg_sim::reg::use_mask(src0, src0.width ? src0.width : 1, #NAME, loc);                    \
        opkg_sim::reg::use_mask(src1, src0.width ? src0.width : 1, #NAME, loc);                    \
        opkg_sim::reg::use_mask(mask, src0.width ? src0.width : 1, #NAME, loc);                    \
        MaskReg out;                                                                               \
        for (int k = 0; k < 4; ++k) {                                                              \
            const uint64_t a = src0.w[k], b = src1.w[k];                                           \
            out.w[k] = (EXPR) & mask.w[k];                                                         \
        }                                                                                          \
        out.set = true;                                                                            \
        out.width = src0.width;                                                                    \
        dst = out;                                                                                 \
    }
OPKG_MASK_OP(And, a & b)
OPKG_MASK_OP(Or, a | b)
OPKG_MASK_OP(Xor, a ^ b)
OPKG_MASK_OP(MaskAnd, a & b)
OPKG_MASK_OP(MaskOr, a | b)
OPKG_MASK_OP(MaskXor, a ^ b)
#undef OPKG_MASK_OP
inline void Not(MaskReg& dst, MaskReg& src, MaskReg& mask, OPKG_REG_LOC) {
    opkg_sim::note(loc);
    opkg_sim::reg::use_mask(src, src.width ? src.width : 1, "Not", loc);
    opkg_sim::reg::use_mask(mask, src.width ? src.width : 1, "Not", loc);
    MaskReg out;
    for (int k = 0; k < 4; ++k) out.w[k] = ~src.w[k] & mask.w[k];
    out.set = true;
    out.width = src.width;
    dst = out;
}
inline void MaskNot(MaskReg& dst, MaskReg& src, MaskReg& mask, OPKG_REG_LOC) { Not(dst, src, mask, loc); }
// Select of masks: src0's bits where mask is set, src1's elsewhere.
inline void Select(MaskReg& dst, MaskReg& src0, MaskReg& src1, MaskReg& mask, OPKG_REG_LOC) {
    opkg_sim::note(loc);
    opkg_sim::reg::use_mask(mask, mask.width ? mask.width : 1, "Select", loc);
    MaskReg out;
    for (int k = 0; k < 4; ++k) out.w[k] = (src0.w[k] & mask.w[k]) | (src1.w[k] & ~mask.w[k]);
    out.set = true;
    out.width = src0.width;
    dst = out;
}
inline void Move(MaskReg& dst, MaskReg& src, MaskReg& mask, OPKG_REG_LOC) {
    opkg_sim::note(loc);
    opkg_sim::reg::use_mask(src, src.width ? src.width : 1, "Move", loc);
    MaskReg out = src;
    for (int k = 0; k < 4; ++k) out.w[k] &= mask.w[k];
    dst = out;
}
inline void Move(MaskReg& dst, MaskReg& src, OPKG_REG_LOC) {
    opkg_sim::note(loc);
    opkg_sim::reg::use_mask(src, src.width ? src.width : 1, "Move", loc);
    dst = src;
}
// Mask Pack: every other bit into the lower (LOWEST) or upper half, the b32 -> b16 layout;
// UnPack: each bit of the lower or upper half twice, b16 -> b32.
template <HighLowPart part = HighLowPart::LOWEST>
inline void Pack(MaskReg& dst, MaskReg& src, OPKG_REG_LOC) {
    opkg_sim::note(loc);
    opkg_sim::reg::use_mask(src, src.width ? src.width : 1, "Pack", loc);
    MaskReg out;
    const uint32_t base = part == HighLowPart::LOWEST ? 0 : 128;
    for (uint32_t j = 0; j < 128; ++j) opkg_sim::reg::set_bit(out, base + j, opkg_sim::reg::bit(src, 2 * j));
    out.set = true;
    out.width = src.width > 1 ? src.width / 2 : 0;
    dst = out;
}
template <HighLowPart part = HighLowPart::LOWEST>
inline void UnPack(MaskReg& dst, MaskReg& src, OPKG_REG_LOC) {
    opkg_sim::note(loc);
    opkg_sim::reg::use_mask(src, src.width ? src.width : 1, "UnPack", loc);
    MaskReg out;
    const uint32_t base = part == HighLowPart::LOWEST ? 0 : 128;
    for (uint32_t j = 0; j < 128; ++j) {
        const bool on = opkg_sim::reg::bit(src, base + j);
        opkg_sim::reg::set_bit(out, 2 * j, on);
        opkg_sim::reg::set_bit(out, 2 * j + 1, on);
    }
    out.set = true;
    out.width = src.width ? uint8_t(src.width * 2) : 0;
    dst = out;
}
template <HighLowPart part = HighLowPart::LOWEST>
inline void MaskPack(MaskReg& dst, MaskReg& src, OPKG_REG_LOC) { Pack<part>(dst, src, loc); }
template <HighLowPart part = HighLowPart::LOWEST>
inline void MaskUnPack(MaskReg& dst, MaskReg& src, OPKG_REG_LOC) { UnPack<part>(dst, src, loc); }
// Mask Interleave: the element predicates of src0 and src1 alternate (as register Interleave
// does with elements of T); DeInterleave splits them again.
template <typename T>
inline void Interleave(MaskReg& dst0, MaskReg& dst1, MaskReg& src0, MaskReg& src1, OPKG_REG_LOC) {
    opkg_sim::note(loc);
    constexpr uint32_t st = sizeof(T), n = VECTOR_REG_WIDTH / st;
    MaskReg o0, o1;
    for (uint32_t j = 0; j < 2 * n; ++j) {
        const MaskReg& s = j % 2 ? src1 : src0;
        const bool on = opkg_sim::reg::bit(s, (j / 2) * st);
        opkg_sim::reg::set_bit(j < n ? o0 : o1, (j % n) * st, on);
    }
    o0.set = o1.set = true;
    o0.width = o1.width = uint8_t(st);
    dst0 = o0;
    dst1 = o1;
}
template <typename T>
inline void DeInterleave(MaskReg& dst0, MaskReg& dst1, MaskReg& src0, MaskReg& src1, OPKG_REG_LOC) {
    opkg_sim::note(loc);
    constexpr uint32_t st = sizeof(T), n = VECTOR_REG_WIDTH / st;
    MaskReg o0, o1;
    for (uint32_t j = 0; j < 2 * n; ++j) {
        const MaskReg& s = j < n ? src0 : src1;
        const bool on = opkg_sim::reg::bit(s, (j % n) * st);
        opkg_sim::reg::set_bit(j % 2 ? o1 : o0, (j / 2) * st, on);
    }
    o0.set = o1.set = true;
    o0.width = o1.width = uint8_t(st);
    dst0 = o0;
    dst1 = o1;
}
template <typename T>
inline void MaskInterleave(MaskReg& d0, MaskReg& d1, MaskReg& s0, MaskReg& s1, OPKG_REG_LOC) {
    Interleave<T>(d0, d1, s0, s1, loc);
}
template <typename T>
inline void MaskDeInterleave(MaskReg& d0, MaskReg& d1, MaskReg& s0, MaskReg& s1, OPKG_REG_LOC) {
    DeInterleave<T>(d0, d1, s0, s1, loc);
}

// ---- element-wise arithmetic
#define OPKG_BIN(NAME, EXPR)                                                                            \
    template <typename T = DefaultType, auto mode = MaskMergeMode::ZEROING, typename U, OPKG_IS_REG(U)> \
    inline void NAME(U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask, OPKG_REG_LOC) {                  \
        opkg_sim::reg::binary<opkg_sim::reg::merge_of<mode>()>(dstReg, srcReg0, srcReg1, mask, #NAME, loc, \
                                                             [](auto x, auto y) { return EXPR; });      \
    }
OPKG_BIN(Add, opkg_sim::reg::wrap_add(x, y))
OPKG_BIN(Sub, opkg_sim::reg::wrap_sub(x, y))
OPKG_BIN(Mul, opkg_sim::reg::wrap_mul(x, y))
OPKG_BIN(Div, (std::is_integral<decltype(x)>::value && y == 0) ? decltype(x)(0) : decltype(x)(x / y))
OPKG_BIN(Max, (x > y || x != x) ? x : y)
OPKG_BIN(Min, (x < y || x != x) ? x : y)
OPKG_BIN(Prelu, x >= 0 ? x : decltype(x)(x * y))
OPKG_BIN(AbsSub, x > y ? decltype(x)(x - y) : decltype(x)(y - x))
#undef OPKG_BIN

#define OPKG_BITS(NAME, EXPR)                                                                           \
    template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U, OPKG_IS_REG(U)> \
    inline void NAME(U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask, OPKG_REG_LOC) {                  \
        using E = typename U::ActualT;                                                                   \
        using B = typename std::conditional<sizeof(E) == 1, uint8_t, typename std::conditional<sizeof(E) == 2, uint16_t, \
                  typename std::conditional<sizeof(E) == 4, uint32_t, uint64_t>::type>::type>::type;   \
        opkg_sim::reg::lanes<mode>(dstReg, mask, #NAME, loc, [](E x0, E y0) {                            \
            B x, y;                                                                                      \
            std::memcpy(&x, &x0, sizeof x);                                                              \
            std::memcpy(&y, &y0, sizeof y);                                                              \
            const B r = B(EXPR);                                                                         \
            E out;                                                                                       \
            std::memcpy(&out, &r, sizeof out);                                                           \
            return out;                                                                                  \
        }, srcReg0, srcReg1);                                                                            \
    }
OPKG_BITS(And, x & y)
OPKG_BITS(Or, x | y)
OPKG_BITS(Xor, x ^ y)
#undef OPKG_BITS

template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U, OPKG_IS_REG(U)>
inline void Not(U& dstReg, U& srcReg, MaskReg& mask, OPKG_REG_LOC) {
    using E = typename U::ActualT;
    opkg_sim::reg::lanes<mode>(dstReg, mask, "Not", loc, [](E x) {
        uint8_t b[sizeof(E)];
        std::memcpy(b, &x, sizeof b);
        for (auto& c : b) c = uint8_t(~c);
        E r;
        std::memcpy(&r, b, sizeof r);
        return r;
    }, srcReg);
}

#define OPKG_UN(NAME, EXPR)                                                                             \
    template <typename T = DefaultType, auto mode = MaskMergeMode::ZEROING, typename U, OPKG_IS_REG(U)> \
    inline void NAME(U& dstReg, U& srcReg, MaskReg& mask, OPKG_REG_LOC) {                               \
        opkg_sim::reg::unary<opkg_sim::reg::merge_of<mode>()>(dstReg, srcReg, mask, #NAME, loc,          \
                                                            [](auto x) { return EXPR; });               \
    }
OPKG_UN(Abs, x < 0 ? decltype(x)(-x) : x)
OPKG_UN(Neg, opkg_sim::reg::wrap_sub(decltype(x)(0), x))
OPKG_UN(Relu, x > 0 ? x : decltype(x)(0))
OPKG_UN(Exp, decltype(x)(std::exp(x)))
OPKG_UN(Sqrt, decltype(x)(std::sqrt(x)))
OPKG_UN(Ln, decltype(x)(std::log(x)))
OPKG_UN(Log, decltype(x)(std::log(x)))
OPKG_UN(Log2, decltype(x)(std::log2(x)))
OPKG_UN(Log10, decltype(x)(std::log10(x)))
OPKG_UN(Rsqrt, decltype(x)(1 / std::sqrt(x)))
OPKG_UN(Reciprocal, decltype(x)(1 / x))
#undef OPKG_UN

#define OPKG_SCALAR(NAME, EXPR)                                                                            \
    template <typename T = DefaultType, typename V, auto mode = MaskMergeMode::ZEROING, typename S, OPKG_IS_REG(S)> \
    inline void NAME(S& dstReg, S& srcReg, V scalarValue, MaskReg& mask, OPKG_REG_LOC) {                   \
        using C = calc_t<typename S::ActualT>;                                                               \
        const C y = C(scalarValue);                                                                          \
        opkg_sim::reg::unary<opkg_sim::reg::merge_of<mode>()>(dstReg, srcReg, mask, #NAME, loc,             \
                                                            [y](auto x) { return EXPR; });                 \
    }
OPKG_SCALAR(Adds, opkg_sim::reg::wrap_add(x, y))
OPKG_SCALAR(Muls, opkg_sim::reg::wrap_mul(x, y))
OPKG_SCALAR(Maxs, (x > y || x != x) ? x : y)
OPKG_SCALAR(Mins, (x < y || x != x) ? x : y)
OPKG_SCALAR(LeakyRelu, x >= 0 ? x : decltype(x)(x * y))
#undef OPKG_SCALAR

template <typename T = DefaultType, typename V, MaskMergeMode mode = MaskMergeMode::ZEROING, typename S, OPKG_IS_REG(S)>
inline void ShiftLefts(S& dstReg, S& srcReg, V scalarValue, MaskReg& mask, OPKG_REG_LOC) {
    using E = typename S::ActualT;
    static_assert(std::is_integral<E>::value, "ShiftLefts takes integer registers");
    const int sh = int(scalarValue);
    opkg_sim::reg::lanes<mode>(dstReg, mask, "ShiftLefts", loc, [sh](E x) {
        return sh >= int(8 * sizeof(E)) || sh < 0 ? E(0) : E(typename std::make_unsigned<E>::type(x) << sh);
    }, srcReg);
}
template <typename T = DefaultType, typename V, MaskMergeMode mode = MaskMergeMode::ZEROING, typename S, OPKG_IS_REG(S)>
inline void ShiftRights(S& dstReg, S& srcReg, V scalarValue, MaskReg& mask, OPKG_REG_LOC) {
    using E = typename S::ActualT;
    static_assert(std::is_integral<E>::value, "ShiftRights takes integer registers");
    const int sh = int(scalarValue);
    opkg_sim::reg::lanes<mode>(dstReg, mask, "ShiftRights", loc, [sh](E x) {
        if (sh >= int(8 * sizeof(E)) || sh < 0) return std::is_signed<E>::value && x < 0 ? E(-1) : E(0);
        return E(x >> sh);   // arithmetic for signed types, logical for unsigned
    }, srcReg);
}
template <typename T = DefaultType, typename U = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename S,
          typename V, OPKG_IS_REG(S)>
inline void ShiftLeft(S& dstReg, S& srcReg0, V& srcReg1, MaskReg& mask, OPKG_REG_LOC) {
    using E = typename S::ActualT;
    using F = typename V::ActualT;
    static_assert(sizeof(E) == sizeof(F), "ShiftLeft: shift counts as wide as the elements");
    opkg_sim::reg::lanes<mode>(dstReg, mask, "ShiftLeft", loc, [](E x, E s0) {
        F s;
        std::memcpy(&s, &s0, sizeof s);
        return s >= F(8 * sizeof(E)) || s < 0 ? E(0) : E(typename std::make_unsigned<E>::type(x) << s);
    }, srcReg0, reinterpret_cast<S&>(srcReg1));
}
template <typename T = DefaultType, typename U = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename S,
          typename V, OPKG_IS_REG(S)>
inline void ShiftRight(S& dstReg, S& srcReg0, V& srcReg1, MaskReg& mask, OPKG_REG_LOC) {
    using E = typename S::ActualT;
    using F = typename V::ActualT;
    static_assert(sizeof(E) == sizeof(F), "ShiftRight: shift counts as wide as the elements");
    opkg_sim::reg::lanes<mode>(dstReg, mask, "ShiftRight", loc, [](E x, E s0) {
        F s;
        std::memcpy(&s, &s0, sizeof s);
        if (s >= F(8 * sizeof(E)) || s < 0) return std::is_signed<E>::value && x < 0 ? E(-1) : E(0);
        return E(x >> s);
    }, srcReg0, reinterpret_cast<S&>(srcReg1));
}

// Fused forms: MulAddDst dst = src0 * src1 + dst; MulDstAdd / FusedMulDstAdd dst = dst * src0 +
// src1; Axpy dst = src * scalar + dst (each rounded once per step, as two instructions would be
// not: the device fuses them, so one rounding, done here in float).
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U, OPKG_IS_REG(U)>
inline void MulAddDst(U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask, OPKG_REG_LOC) {
    using E = typename U::ActualT;
    using C = calc_t<E>;
    opkg_sim::reg::lanes<mode>(dstReg, mask, "MulAddDst", loc, [](E a, E b, E d) {
        return opkg_sim::reg::to_elem<E>(C(C(a) * C(b) + C(d)));
    }, srcReg0, srcReg1, dstReg);
}
// Mula: the devkit's other name of MulAddDst (its kernel_reg_compute_vec_binary_intf_impl.h), which
// ops-nn's norm kernels call unqualified (found by argument-dependent lookup).
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U, OPKG_IS_REG(U)>
inline void Mula(U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask, OPKG_REG_LOC) {
    MulAddDst<T, mode>(dstReg, srcReg0, srcReg1, mask, loc);
}
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U, OPKG_IS_REG(U)>
inline void MulDstAdd(U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask, OPKG_REG_LOC) {
    using E = typename U::ActualT;
    using C = calc_t<E>;
    opkg_sim::reg::lanes<mode>(dstReg, mask, "MulDstAdd", loc, [](E d, E a, E b) {
        return opkg_sim::reg::to_elem<E>(C(C(d) * C(a) + C(b)));
    }, dstReg, srcReg0, srcReg1);
}
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U, OPKG_IS_REG(U)>
inline void FusedMulDstAdd(U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask, OPKG_REG_LOC) {
    MulDstAdd<T, mode>(dstReg, srcReg0, srcReg1, mask, loc);
}
template <typename T = DefaultType, typename V, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U, OPKG_IS_REG(U)>
inline void Axpy(U& dstReg, U& srcReg, V scalarValue, MaskReg& mask, OPKG_REG_LOC) {
    using E = typename U::ActualT;
    using C = calc_t<E>;
    const C y = C(scalarValue);
    opkg_sim::reg::lanes<mode>(dstReg, mask, "Axpy", loc, [y](E a, E d) {
        return opkg_sim::reg::to_elem<E>(C(C(a) * y + C(d)));
    }, srcReg, dstReg);
}
// Mull: the full products of two 32-bit registers, low halves into dst0 and high into dst1.
template <typename T = DefaultType, typename U, OPKG_IS_REG(U)>
inline void Mull(U& dstReg0, U& dstReg1, U& srcReg0, U& srcReg1, MaskReg& mask, OPKG_REG_LOC) {
    using E = typename U::ActualT;
    static_assert(sizeof(E) == 4 && std::is_integral<E>::value, "Mull takes 32-bit integer registers");
    using W = typename std::conditional<std::is_signed<E>::value, int64_t, uint64_t>::type;
    U lo, hi;
    opkg_sim::reg::lanes<MaskMergeMode::ZEROING>(lo, mask, "Mull", loc, [](E a, E b) {
        return E(uint64_t(W(a) * W(b)));
    }, srcReg0, srcReg1);
    opkg_sim::reg::lanes<MaskMergeMode::ZEROING>(hi, mask, "Mull", loc, [](E a, E b) {
        return E(uint64_t(W(a) * W(b)) >> 32);
    }, srcReg0, srcReg1);
    dstReg0 = lo;
    dstReg1 = hi;
}

// Carry forms on 32-bit lanes (the devkit's AddC/SubC pages): {carry, dst} = src0 + src1 (+ the
// carry in) for the adds, src0 + ~src1 + (1, or the carry in) for the subtractions, so a carry
// is "no borrow"; carries are mask bits at the b32 element positions.
namespace detail {
template <class U>
inline void add_carry(MaskReg& carry, U& d, U& a, U& b, MaskReg* cin, bool invert, bool one, MaskReg& mask,
                      const char* op, opkg_sim::SrcLoc loc) {
    using E = typename U::ActualT;
    static_assert(sizeof(E) == 4 && std::is_integral<E>::value, "carry arithmetic takes int32_t/uint32_t registers");
    if (cin) opkg_sim::reg::use_mask(*cin, 4, op, loc);
    MaskReg out;
    U r;
    opkg_sim::reg::lanes<MaskMergeMode::ZEROING>(r, mask, op, loc, [&](E x, E) { return x; }, a, b);
    for (uint32_t i = 0; i < U::LANES; ++i) {
        if (!opkg_sim::reg::bit(mask, i * 4)) continue;
        const uint64_t y = invert ? uint64_t(~uint32_t(b.v[i])) : uint64_t(uint32_t(b.v[i]));
        const uint64_t c = cin ? uint64_t(opkg_sim::reg::bit(*cin, i * 4)) : uint64_t(one);
        const uint64_t sum = uint64_t(uint32_t(a.v[i])) + y + c;
        r.v[i] = E(uint32_t(sum));
        opkg_sim::reg::set_bit(out, i * 4, (sum >> 32) & 1);
    }
    out.set = true;
    out.width = 4;
    d = r;
    carry = out;
}
}  // namespace detail
template <typename T = DefaultType, typename U, OPKG_IS_REG(U)>
inline void Add(MaskReg& carry, U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask, OPKG_REG_LOC) {
    detail::add_carry(carry, dstReg, srcReg0, srcReg1, nullptr, false, false, mask, "Add", loc);
}
template <typename T = DefaultType, typename U, OPKG_IS_REG(U)>
inline void Sub(MaskReg& carry, U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask, OPKG_REG_LOC) {
    detail::add_carry(carry, dstReg, srcReg0, srcReg1, nullptr, true, true, mask, "Sub", loc);
}
template <typename T = DefaultType, typename U, OPKG_IS_REG(U)>
inline void AddC(MaskReg& carry, U& dstReg, U& srcReg0, U& srcReg1, MaskReg& carrySrc, MaskReg& mask, OPKG_REG_LOC) {
    detail::add_carry(carry, dstReg, srcReg0, srcReg1, &carrySrc, false, false, mask, "AddC", loc);
}
template <typename T = DefaultType, typename U, OPKG_IS_REG(U)>
inline void SubC(MaskReg& carry, U& dstReg, U& srcReg0, U& srcReg1, MaskReg& carrySrc, MaskReg& mask, OPKG_REG_LOC) {
    detail::add_carry(carry, dstReg, srcReg0, srcReg1, &carrySrc, true, false, mask, "SubC", loc);
}

// Histograms of uint8_t lanes into 128 uint16_t counters: bin k counts the values 128k..128k+127,
// each (FREQUENCY) or all up to it (ACCUMULATE), added to the counters dst holds.
template <typename T = DefaultType, typename U = DefaultType, HistogramsBinType mode, HistogramsType type, typename S,
          typename V, OPKG_IS_REG(S)>
inline void Histograms(V& dstReg, S& srcReg, MaskReg& mask, OPKG_REG_LOC) {
    static_assert(std::is_same<typename S::ActualT, uint8_t>::value && std::is_same<typename V::ActualT, uint16_t>::value,
                  "Histograms counts uint8_t lanes into uint16_t counters");
    opkg_sim::note(loc);
    opkg_sim::reg::read_reg(srcReg, "Histograms", loc);
    opkg_sim::reg::read_reg(dstReg, "Histograms", loc);
    opkg_sim::reg::use_mask(mask, 1, "Histograms", loc);
    const uint32_t base = 128 * uint32_t(mode);
    uint32_t count[128] = {};
    uint8_t undef = 0;
    for (uint32_t i = 0; i < S::LANES; ++i) {
        if (!opkg_sim::reg::bit(mask, i)) continue;
        if (srcReg.dirty && srcReg.undef[i] && !undef) undef = srcReg.undef[i];
        const uint32_t v = srcReg.v[i];
        if (v >= base && v < base + 128) ++count[v - base];
    }
    uint32_t run = 0;
    for (uint32_t n = 0; n < 128; ++n) {
        run += count[n];
        dstReg.v[n] = uint16_t(dstReg.v[n] + (type == HistogramsType::FREQUENCY ? count[n] : run));
        if (undef) dstReg.undef[n] = undef;
    }
    if (undef) dstReg.dirty = true;
}

// ---- moves, fills, index
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::MERGING, typename U, OPKG_IS_REG(U)>
inline void Move(U& dstReg, U& srcReg, MaskReg mask, OPKG_REG_LOC) {
    using E = typename U::ActualT;
    opkg_sim::reg::lanes<mode>(dstReg, mask, "Move", loc, [](E x) { return x; }, srcReg);
}
template <typename T = DefaultType, typename U, OPKG_IS_REG(U)>
inline void Move(U& dstReg, U& srcReg, OPKG_REG_LOC) {
    opkg_sim::note(loc);
    opkg_sim::reg::read_reg(srcReg, "Move", loc);
    dstReg = srcReg;
}
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::MERGING, typename U, OPKG_IS_REG(U)>
inline void Copy(U& dstReg, U& srcReg, MaskReg mask, OPKG_REG_LOC) {
    Move<T, mode>(dstReg, srcReg, mask, loc);
}
template <typename T = DefaultType, typename V, typename S, OPKG_IS_REG(S),
          typename std::enable_if<!opkg_sim::reg::is_reg<V>::value, int>::type = 0>
inline void Duplicate(S& dstReg, V scalarValue, OPKG_REG_LOC) {
    using E = typename S::ActualT;
    opkg_sim::note(loc);
    const E x = opkg_sim::reg::to_elem<E>(calc_t<E>(scalarValue));
    for (uint32_t i = 0; i < S::LANES; ++i) dstReg.v[i] = x;
    opkg_sim::reg::clean(dstReg);
}
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename V, typename S, OPKG_IS_REG(S),
          typename std::enable_if<!opkg_sim::reg::is_reg<V>::value, int>::type = 0>
inline void Duplicate(S& dstReg, V scalarValue, MaskReg& mask, OPKG_REG_LOC) {
    using E = typename S::ActualT;
    const E x = opkg_sim::reg::to_elem<E>(calc_t<E>(scalarValue));
    if (mode != MaskMergeMode::MERGING) dstReg.written = true, dstReg.dirty = false;
    opkg_sim::reg::lanes<mode>(dstReg, mask, "Duplicate", loc, [x](E) { return x; }, dstReg);
}
// From a register: its lowest (or highest) element into the selected lanes.
template <typename T = DefaultType, HighLowPart pos = HighLowPart::LOWEST, MaskMergeMode mode = MaskMergeMode::ZEROING,
          typename S, OPKG_IS_REG(S)>
inline void Duplicate(S& dstReg, S& srcReg, MaskReg& mask, OPKG_REG_LOC) {
    using E = typename S::ActualT;
    opkg_sim::reg::read_reg(srcReg, "Duplicate", loc);
    S b;
    const uint32_t at = pos == HighLowPart::LOWEST ? 0 : S::LANES - 1;
    for (uint32_t i = 0; i < S::LANES; ++i) {
        b.v[i] = srcReg.v[at];
        b.undef[i] = srcReg.dirty ? srcReg.undef[at] : 0;
    }
    b.dirty = srcReg.dirty && srcReg.undef[at];
    b.written = true;
    opkg_sim::reg::lanes<mode>(dstReg, mask, "Duplicate", loc, [](E x) { return x; }, b);
}
template <typename T = DefaultType, IndexOrder order = IndexOrder::INCREASE_ORDER, typename V, typename S, OPKG_IS_REG(S)>
inline void Arange(S& dstReg, V scalarValue, OPKG_REG_LOC) {
    using E = typename S::ActualT;
    using C = calc_t<E>;
    opkg_sim::note(loc);
    for (uint32_t i = 0; i < S::LANES; ++i) {
        dstReg.v[i] = opkg_sim::reg::to_elem<E>(order == IndexOrder::INCREASE_ORDER ? opkg_sim::reg::wrap_add(C(scalarValue), C(i))
                                                                                    : opkg_sim::reg::wrap_sub(C(scalarValue), C(i)));
    }
    opkg_sim::reg::clean(dstReg);
}

// ---- compare and select
template <typename T = DefaultType, CMPMODE mode = CMPMODE::EQ, typename U, OPKG_IS_REG(U)>
inline void Compare(MaskReg& dst, U& srcReg0, U& srcReg1, MaskReg& mask, OPKG_REG_LOC) {
    using C = calc_t<typename U::ActualT>;
    opkg_sim::reg::read_reg(srcReg1, "Compare", loc);
    opkg_sim::reg::cmp_into(dst, srcReg0, mask, "Compare", loc, [&](uint32_t i) {
        return opkg_sim::compare(C(srcReg0.v[i]), C(srcReg1.v[i]), mode);
    });
}
template <typename T = DefaultType, CMPMODE mode = CMPMODE::EQ, typename U, typename S, OPKG_IS_REG(U)>
inline void Compares(MaskReg& dst, U& srcReg, S scalarValue, MaskReg& mask, OPKG_REG_LOC) {
    using C = calc_t<typename U::ActualT>;
    const C y = C(scalarValue);
    opkg_sim::reg::cmp_into(dst, srcReg, mask, "Compares", loc, [&](uint32_t i) {
        return opkg_sim::compare(C(srcReg.v[i]), y, mode);
    });
}
template <typename T = DefaultType, CMPMODE mode = CMPMODE::EQ, typename U, typename S, OPKG_IS_REG(U)>
inline void CompareScalar(MaskReg& dst, U& srcReg, S scalarValue, MaskReg& mask, OPKG_REG_LOC) {
    Compares<T, mode>(dst, srcReg, scalarValue, mask, loc);
}
template <typename T = DefaultType, typename U, OPKG_IS_REG(U)>
inline void Select(U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask, OPKG_REG_LOC) {
    using E = typename U::ActualT;
    opkg_sim::note(loc);
    opkg_sim::reg::read_reg(srcReg0, "Select", loc);
    opkg_sim::reg::read_reg(srcReg1, "Select", loc);
    opkg_sim::reg::use_mask(mask, U::STEP, "Select", loc);
    U out;
    bool dirty = false;
    for (uint32_t i = 0; i < U::LANES; ++i) {
        const U& s = opkg_sim::reg::bit(mask, i * U::STEP) ? srcReg0 : srcReg1;
        out.v[i] = s.v[i];
        out.undef[i] = s.dirty ? s.undef[i] : 0;
        dirty |= out.undef[i] != 0;
    }
    out.dirty = dirty;
    out.written = true;
    dstReg = out;
    (void)sizeof(E);
}

// ---- Cast, Truncate
template <typename T = DefaultType, typename U = DefaultType, opkg_sim::ConfigCode trait = castTrait, typename S, typename V,
          OPKG_IS_REG(S)>
inline void Cast(S& dstReg, V& srcReg, MaskReg& mask, OPKG_REG_LOC) {
    opkg_sim::reg::cast<T, U, trait>(dstReg, srcReg, mask, loc);
}
// Rounds float elements to integral values by roundMode, staying in the float type.
template <typename T = DefaultType, RoundMode roundMode = RoundMode::CAST_NONE, MaskMergeMode mode = MaskMergeMode::ZEROING,
          typename S, OPKG_IS_REG(S)>
inline void Truncate(S& dstReg, S& srcReg, MaskReg& mask, OPKG_REG_LOC) {
    opkg_sim::reg::unary<mode>(dstReg, srcReg, mask, "Truncate", loc, [](auto x) {
        switch (roundMode) {
            case RoundMode::CAST_FLOOR: return decltype(x)(std::floor(x));
            case RoundMode::CAST_CEIL: return decltype(x)(std::ceil(x));
            case RoundMode::CAST_ROUND: return decltype(x)(std::round(x));
            case RoundMode::CAST_TRUNC: case RoundMode::CAST_ZERO: return decltype(x)(std::trunc(x));
            default: return decltype(x)(std::nearbyint(x));
        }
    });
}

// ---- reductions
template <ReduceType type = ReduceType::SUM, typename T = DefaultType, typename U = DefaultType,
          MaskMergeMode mode = MaskMergeMode::ZEROING, typename S, typename V, OPKG_IS_REG(S)>
inline void Reduce(S& dstReg, V srcReg, MaskReg mask, OPKG_REG_LOC) {
    opkg_sim::reg::reduce<type, mode>(dstReg, srcReg, mask, V::LANES, "Reduce", loc);
}
template <ReduceType type = ReduceType::SUM, typename T = DefaultType, typename U = DefaultType,
          MaskMergeMode mode = MaskMergeMode::ZEROING, typename S, typename V, OPKG_IS_REG(S)>
inline void ReduceDataBlock(S& dstReg, V srcReg, MaskReg mask, OPKG_REG_LOC) {
    opkg_sim::reg::reduce<type, mode>(dstReg, srcReg, mask, opkg_sim::reg::BLK / sizeof(typename V::ActualT),
                                      "ReduceDataBlock", loc);
}
#define OPKG_RED(NAME, TYPE, GROUP)                                                                  \
    template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename S, typename V, \
              OPKG_IS_REG(S)>                                                                         \
    inline void NAME(S& dstReg, V& srcReg, MaskReg& mask, OPKG_REG_LOC) {                            \
        opkg_sim::reg::reduce<TYPE, mode>(dstReg, srcReg, mask, GROUP, #NAME, loc);                  \
    }
OPKG_RED(ReduceSum, ReduceType::SUM, V::LANES)
OPKG_RED(ReduceMax, ReduceType::MAX, V::LANES)
OPKG_RED(ReduceMin, ReduceType::MIN, V::LANES)
OPKG_RED(ReduceMaxWithDataBlock, ReduceType::MAX, opkg_sim::reg::BLK / sizeof(typename V::ActualT))
OPKG_RED(ReduceMinWithDataBlock, ReduceType::MIN, opkg_sim::reg::BLK / sizeof(typename V::ActualT))
OPKG_RED(ReduceSumWithDataBlock, ReduceType::SUM, opkg_sim::reg::BLK / sizeof(typename V::ActualT))
#undef OPKG_RED
// PairReduceElem: each two neighbouring elements summed into the low half of dst, in order (the
// devkit's page: half and float, ZEROING only); unselected elements add nothing, the high half
// is zero.
template <PairReduce type = PairReduce::SUM, typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING,
          typename U, OPKG_IS_REG(U)>
inline void PairReduceElem(U& dstReg, U srcReg, MaskReg mask, OPKG_REG_LOC) {
    static_assert(std::is_same<typename U::ActualT, float>::value || std::is_same<typename U::ActualT, half>::value,
                  "PairReduceElem unsupport this datatype on current device");
    static_assert(mode == MaskMergeMode::ZEROING, "current PairReduceElem api only supported Mode ZEROING on current device!");
    opkg_sim::reg::reduce<ReduceType::SUM, mode>(dstReg, srcReg, mask, 2, "PairReduceElem", loc);
}

// ---- rearrangement
template <typename T = DefaultType, typename U, OPKG_IS_REG(U)>
inline void Interleave(U& dstReg0, U& dstReg1, U& srcReg0, U& srcReg1, OPKG_REG_LOC) {
    opkg_sim::note(loc);
    opkg_sim::reg::read_reg(srcReg0, "Interleave", loc);
    opkg_sim::reg::read_reg(srcReg1, "Interleave", loc);
    U o0, o1;
    constexpr uint32_t n = U::LANES;
    for (uint32_t j = 0; j < 2 * n; ++j) {
        const U& s = j % 2 ? srcReg1 : srcReg0;
        U& o = j < n ? o0 : o1;
        o.v[j % n] = s.v[j / 2];
        o.undef[j % n] = s.dirty ? s.undef[j / 2] : 0;
    }
    o0.dirty = o1.dirty = srcReg0.dirty || srcReg1.dirty;
    o0.written = o1.written = true;
    dstReg0 = o0;
    dstReg1 = o1;
}
template <typename T = DefaultType, typename U, OPKG_IS_REG(U)>
inline void DeInterleave(U& dstReg0, U& dstReg1, U& srcReg0, U& srcReg1, OPKG_REG_LOC) {
    opkg_sim::note(loc);
    opkg_sim::reg::read_reg(srcReg0, "DeInterleave", loc);
    opkg_sim::reg::read_reg(srcReg1, "DeInterleave", loc);
    U o0, o1;
    constexpr uint32_t n = U::LANES;
    for (uint32_t j = 0; j < 2 * n; ++j) {
        const U& s = j < n ? srcReg0 : srcReg1;
        U& o = j % 2 ? o1 : o0;
        o.v[j / 2] = s.v[j % n];
        o.undef[j / 2] = s.dirty ? s.undef[j % n] : 0;
    }
    o0.dirty = o1.dirty = srcReg0.dirty || srcReg1.dirty;
    o0.written = o1.written = true;
    dstReg0 = o0;
    dstReg1 = o1;
}
// Register Pack: the low part of each wide element of src, packed into the lower (LOWEST) or
// upper half of dst, the other half zero. UnPack: the lower or upper half of src's narrow
// elements, each widened (sign-extended for signed types).
template <typename T = DefaultType, typename U = DefaultType, HighLowPart part = HighLowPart::LOWEST, typename S,
          typename V, OPKG_IS_REG(S)>
inline void Pack(S& dstReg, V& srcReg, OPKG_REG_LOC) {
    using DE = typename S::ActualT;
    using SE = typename V::ActualT;
    static_assert(sizeof(SE) == 2 * sizeof(DE), "Reg::Pack narrows elements to half their width");
    opkg_sim::note(loc);
    opkg_sim::reg::read_reg(srcReg, "Pack", loc);
    S o;
    std::memset(static_cast<void*>(o.v), 0, sizeof o.v);
    std::memset(o.undef, 0, sizeof o.undef);
    const uint32_t base = part == HighLowPart::LOWEST ? 0 : V::LANES;
    for (uint32_t i = 0; i < V::LANES; ++i) {
        std::memcpy(&o.v[base + i], &srcReg.v[i], sizeof(DE));   // the low part (little-endian)
        o.undef[base + i] = srcReg.dirty ? srcReg.undef[i] : 0;
    }
    o.dirty = srcReg.dirty;
    o.written = true;
    dstReg = o;
}
template <typename T = DefaultType, typename U = DefaultType, HighLowPart part = HighLowPart::LOWEST, typename S,
          typename V, OPKG_IS_REG(S)>
inline void UnPack(S& dstReg, V& srcReg, OPKG_REG_LOC) {
    using DE = typename S::ActualT;
    using SE = typename V::ActualT;
    static_assert(sizeof(DE) == 2 * sizeof(SE), "Reg::UnPack widens elements to twice their width");
    opkg_sim::note(loc);
    opkg_sim::reg::read_reg(srcReg, "UnPack", loc);
    S o;
    const uint32_t base = part == HighLowPart::LOWEST ? 0 : S::LANES;
    for (uint32_t i = 0; i < S::LANES; ++i) {
        if constexpr (std::is_integral<SE>::value && std::is_integral<DE>::value) o.v[i] = DE(srcReg.v[base + i]);
        else {
            o.v[i] = DE();
            std::memcpy(&o.v[i], &srcReg.v[base + i], sizeof(SE));
        }
        o.undef[i] = srcReg.dirty ? srcReg.undef[base + i] : 0;
    }
    o.dirty = srcReg.dirty;
    o.written = true;
    dstReg = o;
}
// Squeeze (GatherMask): the selected elements moved to the front in order, the rest zero; with
// GatherMaskMode::STORE_REG their byte count is kept for the next count-less StoreUnAlign.
template <typename T = DefaultType, GatherMaskMode store = GatherMaskMode::NO_STORE_REG, typename U, OPKG_IS_REG(U)>
inline void Squeeze(U& dstReg, U& srcReg, MaskReg& mask, OPKG_REG_LOC) {
    opkg_sim::note(loc);
    opkg_sim::reg::read_reg(srcReg, "Squeeze", loc);
    opkg_sim::reg::use_mask(mask, U::STEP, "Squeeze", loc);
    U o;
    std::memset(static_cast<void*>(o.v), 0, sizeof o.v);
    std::memset(o.undef, 0, sizeof o.undef);
    uint32_t n = 0;
    for (uint32_t i = 0; i < U::LANES; ++i) {
        if (!opkg_sim::reg::bit(mask, i * U::STEP)) continue;
        o.v[n] = srcReg.v[i];
        o.undef[n++] = srcReg.dirty ? srcReg.undef[i] : 0;
    }
    o.dirty = srcReg.dirty;
    o.written = true;
    dstReg = o;
    if (store == GatherMaskMode::STORE_REG) opkg_sim::reg::spr().squeezed = n * uint32_t(sizeof(typename U::ActualT));
}
template <typename T = DefaultType, GatherMaskMode store = GatherMaskMode::NO_STORE_REG, typename U, OPKG_IS_REG(U)>
inline void GatherMask(U& dstReg, U& srcReg, MaskReg& mask, OPKG_REG_LOC) {
    Squeeze<T, store>(dstReg, srcReg, mask, loc);
}
// Gather between registers: dst lane i = src lane index[i] (an index past the register wraps).
template <typename T = DefaultType, typename U = DefaultType, typename S, typename V, OPKG_IS_REG(S), OPKG_IS_REG(V)>
inline void Gather(S& dstReg, S& srcReg, V& indexReg, OPKG_REG_LOC) {
    opkg_sim::note(loc);
    opkg_sim::reg::read_reg(srcReg, "Gather", loc);
    opkg_sim::reg::read_reg(indexReg, "Gather", loc);
    S o;
    bool dirty = false;
    for (uint32_t i = 0; i < S::LANES; ++i) {
        const uint32_t j = uint32_t(uint64_t(indexReg.v[i < V::LANES ? i : V::LANES - 1]) % S::LANES);
        o.v[i] = srcReg.v[j];
        o.undef[i] = srcReg.dirty ? srcReg.undef[j] : 0;
        if (indexReg.dirty && indexReg.undef[i < V::LANES ? i : V::LANES - 1]) o.undef[i] = indexReg.undef[i < V::LANES ? i : V::LANES - 1];
        dirty |= o.undef[i] != 0;
    }
    o.dirty = dirty;
    o.written = true;
    dstReg = o;
}

}  // namespace Reg
}  // namespace AscendC

// The compiler's predicate builtins some kernels call directly (plt_b32(count, POST_UPDATE)):
// the mask of the first min(count, lanes) elements of that width, taken from count, as
// Reg::UpdateMask does.
enum opkg_sim_plt_mode { POST_UPDATE = 1 };
inline AscendC::Reg::MaskReg plt_b8(uint32_t& count, opkg_sim_plt_mode) { return AscendC::Reg::UpdateMask<uint8_t>(count); }
inline AscendC::Reg::MaskReg plt_b16(uint32_t& count, opkg_sim_plt_mode) { return AscendC::Reg::UpdateMask<uint16_t>(count); }
inline AscendC::Reg::MaskReg plt_b32(uint32_t& count, opkg_sim_plt_mode) { return AscendC::Reg::UpdateMask<uint32_t>(count); }

#undef OPKG_IS_REG
#undef OPKG_REG_LOC

// A register-API call with explicit template arguments and no declaration of its name in scope
// (`StoreAlign<float, StoreDist::DIST_FIRST_ELEMENT_B32>(addr, reg, mask)` in a file that opens
// only `namespace AscendC`) compiles with bisheng, clang accepting it in C++17 as C++20's
// argument-dependent lookup of template calls (P0846). g++ does that from C++20 only, so these
// names are declared in AscendC as templates no call can select: lookup then knows the name is a
// template, and argument-dependent lookup finds the AscendC::Reg function. Only names the devkit's
// classic and high-level APIs do not also have.
namespace opkg_sim {
namespace reg {
template <class> struct LookupOnly {};
}  // namespace reg
}  // namespace opkg_sim
namespace AscendC {
#define OPKG_REG_LOOKUP(NAME) template <class OpkgLookupOnly> void NAME(opkg_sim::reg::LookupOnly<OpkgLookupOnly>) = delete;
OPKG_REG_LOOKUP(LoadAlign) OPKG_REG_LOOKUP(StoreAlign) OPKG_REG_LOOKUP(LoadUnAlign) OPKG_REG_LOOKUP(StoreUnAlign)
OPKG_REG_LOOKUP(LoadUnAlignPre) OPKG_REG_LOOKUP(StoreUnAlignPost) OPKG_REG_LOOKUP(DataCopyUnAlign)
OPKG_REG_LOOKUP(DataCopyUnAlignPre) OPKG_REG_LOOKUP(DataCopyUnAlignPost) OPKG_REG_LOOKUP(DataCopyGather)
OPKG_REG_LOOKUP(DataCopyScatter) OPKG_REG_LOOKUP(GatherB) OPKG_REG_LOOKUP(UpdateMask) OPKG_REG_LOOKUP(CreateMask)
OPKG_REG_LOOKUP(LocalMemBar) OPKG_REG_LOOKUP(Move) OPKG_REG_LOOKUP(Reduce) OPKG_REG_LOOKUP(ReduceSumWithDataBlock)
OPKG_REG_LOOKUP(ReduceMaxWithDataBlock) OPKG_REG_LOOKUP(ReduceMinWithDataBlock) OPKG_REG_LOOKUP(PairReduceElem)
OPKG_REG_LOOKUP(Histograms) OPKG_REG_LOOKUP(Pack) OPKG_REG_LOOKUP(UnPack) OPKG_REG_LOOKUP(MaskPack)
OPKG_REG_LOOKUP(MaskUnPack) OPKG_REG_LOOKUP(MaskNot) OPKG_REG_LOOKUP(MaskAnd) OPKG_REG_LOOKUP(MaskOr)
OPKG_REG_LOOKUP(MaskXor) OPKG_REG_LOOKUP(MaskSel) OPKG_REG_LOOKUP(MaskMov) OPKG_REG_LOOKUP(MaskInterleave)
OPKG_REG_LOOKUP(MaskDeInterleave) OPKG_REG_LOOKUP(Squeeze) OPKG_REG_LOOKUP(Unsqueeze) OPKG_REG_LOOKUP(Arange)
OPKG_REG_LOOKUP(AddC) OPKG_REG_LOOKUP(SubC) OPKG_REG_LOOKUP(AddCarryOut) OPKG_REG_LOOKUP(SubCarryOut)
OPKG_REG_LOOKUP(Mula) OPKG_REG_LOOKUP(MulDstAdd) OPKG_REG_LOOKUP(FusedMulDstAdd) OPKG_REG_LOOKUP(ShiftLefts)
OPKG_REG_LOOKUP(ShiftRights) OPKG_REG_LOOKUP(CreateAddrReg) OPKG_REG_LOOKUP(PrefixSum)
#undef OPKG_REG_LOOKUP
}  // namespace AscendC

#endif
