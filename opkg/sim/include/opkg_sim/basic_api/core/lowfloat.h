// The Ascend 950's 8- and 4-bit float types as kernels name them (asc-devkit: fp8_e4m3fn_t,
// fp8_e5m2_t, fp8_e8m0_t, hifloat8_t, fp4x2_e2m1_t, fp4x2_e1m2_t), stored as their bits.
// Conversions from float round to nearest, ties to even, and treat what falls outside the format
// as the devkit's Reg::Cast page describes its non-saturating mode (the default):
//   e4m3fn: no inf, so overflow and +-inf give NaN (0x7f with the sign); e5m2: IEEE, overflow
//   gives +-inf; e8m0 (exponent only, unsigned): NaN gives 0xff, +-inf and magnitudes above
//   2^127 give 0xfe; e2m1 / e1m2: no inf or NaN, overflow and +-inf give the signed maximum,
//   NaN gives 0. Conversions to float are exact.
// hifloat8_t is storage only: the sim does not emulate its tapered encoding yet, and a kernel
// that converts one does not compile.
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

struct hifloat8_storage {
    uint8_t bits = 0;
};

}  // namespace opkg_sim

using fp8_e4m3fn_t = opkg_sim::lowfloat8<opkg_sim::fmt_e4m3fn, 0>;
using fp8_e5m2_t = opkg_sim::lowfloat8<opkg_sim::fmt_e5m2, 1>;
using fp8_e8m0_t = opkg_sim::lowfloat8<opkg_sim::fmt_e8m0, 2>;
using hifloat8_t = opkg_sim::hifloat8_storage;
using fp4x2_e2m1_t = opkg_sim::lowfloat4x2<opkg_sim::fmt_e2m1>;
using fp4x2_e1m2_t = opkg_sim::lowfloat4x2<opkg_sim::fmt_e1m2>;

#endif
