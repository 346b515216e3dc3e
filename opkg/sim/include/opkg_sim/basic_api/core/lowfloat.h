// The Ascend 950's 8- and 4-bit float types as kernels name them (asc-devkit: fp8_e4m3fn_t,
// fp8_e5m2_t, fp8_e8m0_t, hifloat8_t, fp4x2_e2m1_t, fp4x2_e1m2_t), stored as their bits.
// Conversions from float round to nearest, ties to even, and treat what falls outside the format
// as the devkit's Reg::Cast page describes its non-saturating mode (the default):
//   e4m3fn: no inf, so overflow and +-inf give NaN (0x7f with the sign); e5m2: IEEE, overflow
//   gives +-inf; e8m0 (exponent only, unsigned): NaN gives 0xff, +-inf and magnitudes above
//   2^127 give 0xfe; e2m1 / e1m2: no inf or NaN, overflow and +-inf give the signed maximum,
//   NaN gives 0. Conversions to float are exact.
// hifloat8_t: HiFloat8's tapered encoding (below, `hifloat8_format`).
#ifndef OPKG_SIM_LOWFLOAT_H
#define OPKG_SIM_LOWFLOAT_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

namespace opkg_sim {

enum class LowKind { ieee, fn, finite, e8m0 };

// E exponent bits, M mantissa bits, bias B; `Kind` says what the all-ones exponent means.
template <int E, int M, int B, LowKind Kind>
struct lowfloat_format {
    static constexpr bool has_sign = Kind != LowKind::e8m0;
    static constexpr uint32_t exp_max = (1u << E) - 1;
    static constexpr uint32_t mant_mask = (1u << M) - 1;
    static constexpr uint32_t sign_bit = has_sign ? 1u << (E + M) : 0u;

    static double max_value() {
        // ieee reserves the top exponent; fn the top code; finite and e8m0 use all but NaN
        if (Kind == LowKind::ieee) return std::ldexp(2.0 - std::ldexp(1.0, -M), int(exp_max) - 1 - B);
        if (Kind == LowKind::fn) return std::ldexp(2.0 - std::ldexp(2.0, -M), int(exp_max) - B);
        if (Kind == LowKind::e8m0) return std::ldexp(1.0, int(exp_max) - 1 - B);
        return std::ldexp(2.0 - std::ldexp(1.0, -M), int(exp_max) - B);
    }

    static uint8_t nan_bits(bool neg) {
        if (Kind == LowKind::e8m0) return 0xff;
        if (Kind == LowKind::finite) return 0;                   // no NaN: the device writes 0
        uint32_t b = (exp_max << M) | mant_mask;                 // all ones
        return uint8_t(b | (neg ? sign_bit : 0u));
    }

    static float to_float(uint8_t bits) {
        const bool neg = (bits & sign_bit) != 0;
        const uint32_t e = (bits >> M) & exp_max;
        const uint32_t m = bits & mant_mask;
        if (Kind == LowKind::e8m0) {
            return e == exp_max ? NAN : float(std::ldexp(1.0, int(e) - B));
        }
        if (Kind == LowKind::ieee && e == exp_max) return m ? NAN : (neg ? -INFINITY : INFINITY);
        if (Kind == LowKind::fn && e == exp_max && m == mant_mask) return NAN;
        double v = e == 0 ? std::ldexp(double(m), 1 - B - M)
                          : std::ldexp(double(m | (1u << M)), int(e) - B - M);
        return float(neg ? -v : v);
    }

    static uint8_t from_float(float f) {
        const bool neg = std::signbit(f) && has_sign;
        if (std::isnan(f)) return nan_bits(std::signbit(f));
        double a = std::fabs(double(f));
        const double top = max_value();
        if (Kind == LowKind::e8m0) {
            // the scale's magnitude: a power of two, rounded on the exponent's binade
            if (std::isinf(a) || a > top) return uint8_t(exp_max - 1);
            if (a == 0.0) return 0;                              // no zero: the smallest scale
        }
        uint32_t out = 0;
        if (!std::isinf(a) && a != 0.0) {
            const int min_e = Kind == LowKind::e8m0 ? -B : 1 - B;
            int e = std::max(std::ilogb(a), min_e);
            double r = std::nearbyint(std::ldexp(a, M - e));     // ties to even (default FP mode)
            a = std::ldexp(r, e - M);
        }
        if (std::isinf(a) || a > top) {
            if (Kind == LowKind::ieee) return uint8_t((exp_max << M) | (neg ? sign_bit : 0u));
            if (Kind == LowKind::fn) return nan_bits(neg);
            if (Kind == LowKind::e8m0) return uint8_t(exp_max - 1);
            a = top;                                             // finite: the signed maximum
        }
        if (Kind == LowKind::e8m0) {
            if (a < std::ldexp(1.0, -B)) return 0;
            return uint8_t(std::ilogb(a) + B);
        }
        if (a != 0.0) {
            int e = std::ilogb(a);
            if (e < 1 - B) {
                out = uint32_t(std::ldexp(a, B - 1 + M));                        // subnormal
            } else {
                out = (uint32_t(e + B) << M) | (uint32_t(std::ldexp(a, M - e)) & mant_mask);
            }
        }
        return uint8_t(out | (neg ? sign_bit : 0u));
    }
};

using fmt_e4m3fn = lowfloat_format<4, 3, 7, LowKind::fn>;
using fmt_e5m2 = lowfloat_format<5, 2, 15, LowKind::ieee>;
using fmt_e8m0 = lowfloat_format<8, 0, 127, LowKind::e8m0>;
using fmt_e2m1 = lowfloat_format<2, 1, 1, LowKind::finite>;
using fmt_e1m2 = lowfloat_format<1, 2, 1, LowKind::finite>;

// One 8-bit float type: converts from every arithmetic type through float, to float exactly.
template <class Fmt, int Tag>
struct lowfloat8 {
    uint8_t bits = 0;
    lowfloat8() = default;
    lowfloat8(float f) : bits(Fmt::from_float(f)) {}
    template <class U, typename std::enable_if<(std::is_arithmetic<U>::value || std::is_same<U, _Float16>::value) &&
                                                   !std::is_same<U, float>::value, int>::type = 0>
    lowfloat8(U v) : lowfloat8(static_cast<float>(v)) {}
    operator float() const { return Fmt::to_float(bits); }
    static lowfloat8 from_bits(uint8_t b) { lowfloat8 v; v.bits = b; return v; }
};

// Two 4-bit values in one byte. The devkit does not say in public which nibble holds the first
// element, so the sim reads none: conversions go through one nibble at a time, named.
template <class Fmt>
struct lowfloat4x2 {
    uint8_t bits = 0;
    float low() const { return Fmt::to_float(bits & 0xf); }
    float high() const { return Fmt::to_float(bits >> 4); }
    void set_low(float f) { bits = uint8_t((bits & 0xf0) | Fmt::from_float(f)); }
    void set_high(float f) { bits = uint8_t((bits & 0x0f) | (Fmt::from_float(f) << 4)); }
};

// HiFloat8 (the devkit's hifloat8_t: sign, a prefix-coded dot field D giving the exponent's width,
// the exponent in sign-magnitude with an implicit leading 1, and what is left as mantissa):
//   after the sign: 0000 mmm -> subnormal 2^(m-23) (m = 1..7; m = 0 is zero); 0001 mmm -> D = 0,
//   exponent 0, 3 mantissa bits; 001 s mmm -> |e| = 1, 3 bits; 01 s e mmm -> |e| = 2..3, 3 bits;
//   10 s ee mm -> |e| = 4..7, 2 bits; 11 s eee m -> |e| = 8..15, 1 bit (s: the exponent's sign).
//   0x80 (negative zero) is NaN; 0x6f / 0xef (|e| = 15, mantissa 1) are +-inf; the largest finite
//   magnitude is 2^15. Conversions from float round to nearest, ties away from zero (the devkit's
//   CAST_ROUND; CAST_HYBRID, which its rounding-mode page calls a random rounding for hifloat8
//   without saying how, is rounded the same way here: docs/api.md). A value whose rounding
//   reaches 1.5 * 2^15 overflows: +-inf, or +-2^15 when saturating (NaN then gives 0).
struct hifloat8_format {
    static constexpr uint8_t nan_code = 0x80;
    static constexpr uint8_t inf_code = 0x6f;
    static constexpr double max_value = 32768.0;

    // mantissa bits at exponent e (normal numbers, |e| <= 15); the subnormals have none
    static int mant_bits(int e) {
        const int a = e < 0 ? -e : e;
        return a <= 3 ? 3 : a <= 7 ? 2 : 1;
    }

    static float to_float(uint8_t bits) {
        if (bits == nan_code) return NAN;
        const bool neg = (bits & 0x80) != 0;
        const uint32_t b = bits & 0x7f;
        if (b == inf_code) return neg ? -INFINITY : INFINITY;
        double v;
        if (b < 0x08) {
            v = b == 0 ? 0.0 : std::ldexp(1.0, int(b) - 23);
        } else {
            int e_abs, m_bits;   // by the dot field: D = 0, 1, 2, 3, 4
            bool e_neg;
            if (b < 0x10) { e_neg = false; e_abs = 0; m_bits = 3; }
            else if (b < 0x20) { e_neg = (b >> 3) & 1; e_abs = 1; m_bits = 3; }
            else if (b < 0x40) { e_neg = (b >> 4) & 1; e_abs = 2 + ((b >> 3) & 1); m_bits = 3; }
            else if (b < 0x60) { e_neg = (b >> 4) & 1; e_abs = 4 + ((b >> 2) & 3); m_bits = 2; }
            else { e_neg = (b >> 4) & 1; e_abs = 8 + ((b >> 1) & 7); m_bits = 1; }
            const uint32_t m = b & ((1u << m_bits) - 1);
            v = std::ldexp(1.0 + std::ldexp(double(m), -m_bits), e_neg ? -e_abs : e_abs);
        }
        return float(neg ? -v : v);
    }

    // a (> 0, finite) rounded to the format, ties away from zero; may exceed max_value
    static double round_magnitude(double a) {
        if (a < std::ldexp(1.0, -22)) return a >= std::ldexp(1.0, -23) ? std::ldexp(1.0, -22) : 0.0;
        const int e = std::ilogb(a);
        const int m = e < -15 ? 0 : e > 15 ? 1 : mant_bits(e);
        const double q = std::round(std::ldexp(a, m - e));         // std::round: ties away
        return std::ldexp(q, e - m);
    }

    static uint8_t encode_magnitude(double v) {   // v exactly representable, 0 < v <= 2^15
        const int e = std::ilogb(v);
        if (e < -15) return uint8_t(e + 23);                        // subnormal
        const int m_bits = mant_bits(e);
        const uint32_t m = uint32_t(std::ldexp(v, m_bits - e)) & ((1u << m_bits) - 1);
        const uint32_t s = e < 0 ? 1u : 0u, a = uint32_t(e < 0 ? -e : e);
        if (a == 0) return uint8_t(0x08 | m);
        if (a == 1) return uint8_t(0x10 | (s << 3) | m);
        if (a <= 3) return uint8_t(0x20 | (s << 4) | ((a - 2) << 3) | m);
        if (a <= 7) return uint8_t(0x40 | (s << 4) | ((a - 4) << 2) | m);
        return uint8_t(0x60 | (s << 4) | ((a - 8) << 1) | m);
    }

    static uint8_t from_double(double d, bool saturate) {
        if (std::isnan(d)) return saturate ? 0 : nan_code;
        const bool neg = std::signbit(d);
        const uint8_t sign = neg ? 0x80 : 0;
        double a = std::fabs(d);
        if (!std::isinf(a)) a = round_magnitude(a);
        if (a == 0.0) return 0;                                     // no negative zero (0x80 is NaN)
        if (a > max_value) {
            if (!saturate) return uint8_t(inf_code | sign);
            a = max_value;
        }
        return uint8_t(encode_magnitude(a) | sign);
    }
};

struct hifloat8 {
    uint8_t bits = 0;
    hifloat8() = default;
    hifloat8(float f) : bits(hifloat8_format::from_double(f, false)) {}
    template <class U, typename std::enable_if<(std::is_arithmetic<U>::value || std::is_same<U, _Float16>::value) &&
                                                   !std::is_same<U, float>::value, int>::type = 0>
    hifloat8(U v) : hifloat8(static_cast<float>(v)) {}
    operator float() const { return hifloat8_format::to_float(bits); }
    static hifloat8 from_bits(uint8_t b) { hifloat8 v; v.bits = b; return v; }
};

}  // namespace opkg_sim

using fp8_e4m3fn_t = opkg_sim::lowfloat8<opkg_sim::fmt_e4m3fn, 0>;
using fp8_e5m2_t = opkg_sim::lowfloat8<opkg_sim::fmt_e5m2, 1>;
using fp8_e8m0_t = opkg_sim::lowfloat8<opkg_sim::fmt_e8m0, 2>;
using hifloat8_t = opkg_sim::hifloat8;
using fp4x2_e2m1_t = opkg_sim::lowfloat4x2<opkg_sim::fmt_e2m1>;
using fp4x2_e1m2_t = opkg_sim::lowfloat4x2<opkg_sim::fmt_e1m2>;

#endif
