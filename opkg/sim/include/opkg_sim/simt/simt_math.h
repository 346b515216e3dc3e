// The SIMT math functions (asc-devkit include/simt_api/math_functions.h, device_functions.h,
// asc_fp16.h, asc_bf16.h; docs/zh/api/SIMT-API). The float functions that C99 names the same
// (expf, logf, powf, ...) are the C library's, correctly rounded or within 1-2 ulp as the
// devkit documents its own; the rest are written here in float (or double where a float formula
// would lose the documented precision). half is IEEE binary16 (_Float16), bfloat16_t the sim's.
#ifndef OPKG_SIM_SIMT_MATH_H
#define OPKG_SIM_SIMT_MATH_H

#include <cmath>
#include <cstdint>
#include <cstring>
#include <climits>
#include <limits>
#include "opkg_sim/simt/simt.h"

// ---- float functions without a C99 spelling ----
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / std::cbrt(x); }
inline float exp10f(float x) { return float(std::pow(10.0, double(x))); }
inline float fdividef(float x, float y) { return x / y; }
inline float __fdividef(float x, float y) { return x / y; }
inline float sinpif(float x) { return float(std::sin(M_PI * double(x))); }
inline float cospif(float x) { return float(std::cos(M_PI * double(x))); }
inline float tanpif(float x) { return float(std::tan(M_PI * double(x))); }
inline void sincosf(float x, float* s, float* c) { *s = std::sin(x); *c = std::cos(x); }
inline void sincospif(float x, float* s, float* c) { *s = sinpif(x); *c = cospif(x); }
inline float normcdff(float x) { return float(0.5 * std::erfc(-double(x) / M_SQRT2)); }
inline float erfcxf(float x) { return float(std::exp(double(x) * x) * std::erfc(double(x))); }
// erf's inverse by Newton steps in double from a closed-form start (Giles' approximation).
inline double opkg_simt_erfinv(double y) {
    if (!(y > -1.0 && y < 1.0)) return y == 1.0 ? INFINITY : y == -1.0 ? -INFINITY : NAN;
    double w = -std::log((1.0 - y) * (1.0 + y)), x;
    if (w < 5.0) {
        w -= 2.5;
        x = 2.81022636e-08;
        for (double c : {3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
                         -0.00417768164, 0.246640727, 1.50140941}) x = c + x * w;
    } else {
        w = std::sqrt(w) - 3.0;
        x = -0.000200214257;
        for (double c : {0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
                         0.00943887047, 1.00167406, 2.83297682}) x = c + x * w;
    }
    x *= y;
    for (int i = 0; i < 3; ++i) x -= (std::erf(x) - y) / (M_2_SQRTPI * std::exp(-x * x));
    return x;
}
inline float erfinvf(float y) { return float(opkg_simt_erfinv(double(y))); }
inline float erfcinvf(float y) { return float(opkg_simt_erfinv(1.0 - double(y))); }
inline float normcdfinvf(float y) { return float(-M_SQRT2 * opkg_simt_erfinv(1.0 - 2.0 * double(y))); }
inline float normf(int dim, const float* a) {
    double s = 0;
    for (int i = 0; i < dim; ++i) s += double(a[i]) * a[i];
    return float(std::sqrt(s));
}
inline float rnormf(int dim, const float* a) { return 1.0f / normf(dim, a); }
inline float norm3df(float a, float b, float c) { return float(std::sqrt(double(a) * a + double(b) * b + double(c) * c)); }
inline float norm4df(float a, float b, float c, float d) {
    return float(std::sqrt(double(a) * a + double(b) * b + double(c) * c + double(d) * d));
}
inline float rnorm3df(float a, float b, float c) { return 1.0f / norm3df(a, b, c); }
inline float rnorm4df(float a, float b, float c, float d) { return 1.0f / norm4df(a, b, c, d); }
inline float rhypotf(float a, float b) { return 1.0f / std::hypot(a, b); }
inline float cyl_bessel_i0f(float x) { return float(std::cyl_bessel_i(0.0, std::fabs(double(x)))); }
inline float cyl_bessel_i1f(float x) {
    const double v = std::cyl_bessel_i(1.0, std::fabs(double(x)));
    return float(x < 0 ? -v : v);
}
inline float __saturatef(float x) { return x != x ? 0.0f : x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }

// ---- integer helpers ----
inline unsigned int umax(unsigned int a, unsigned int b) { return a > b ? a : b; }
inline unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
inline long long llmax(long long a, long long b) { return a > b ? a : b; }
inline long long llmin(long long a, long long b) { return a < b ? a : b; }
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(unsigned(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned int __brev(unsigned int x) {
    unsigned int r = 0;
    for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
    return r;
}
inline int __mulhi(int a, int b) { return int((int64_t(a) * b) >> 32); }
inline unsigned int __umulhi(unsigned int a, unsigned int b) { return unsigned((uint64_t(a) * b) >> 32); }
inline long long __mul64hi(long long a, long long b) { return (long long)((__int128(a) * b) >> 64); }
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
    return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
inline int __mul24(int a, int b) { return int(int64_t((a << 8) >> 8) * ((b << 8) >> 8)); }
inline unsigned int __umul24(unsigned int a, unsigned int b) { return (a & 0xFFFFFFu) * (b & 0xFFFFFFu); }
inline int __hadd(int a, int b) { return int((int64_t(a) + b) >> 1); }
inline int __rhadd(int a, int b) { return int((int64_t(a) + b + 1) >> 1); }
inline unsigned int __uhadd(unsigned int a, unsigned int b) { return unsigned((uint64_t(a) + b) >> 1); }
inline unsigned int __urhadd(unsigned int a, unsigned int b) { return unsigned((uint64_t(a) + b + 1) >> 1); }
inline unsigned int __sad(int a, int b, unsigned int c) { return unsigned(a > b ? int64_t(a) - b : int64_t(b) - a) + c; }
inline unsigned int __usad(unsigned int a, unsigned int b, unsigned int c) { return (a > b ? a - b : b - a) + c; }

// ---- reinterpretation ----
inline int __float_as_int(float x) { int i; std::memcpy(&i, &x, 4); return i; }
inline unsigned int __float_as_uint(float x) { unsigned int i; std::memcpy(&i, &x, 4); return i; }
inline float __int_as_float(int i) { float x; std::memcpy(&x, &i, 4); return x; }
inline float __uint_as_float(unsigned int i) { float x; std::memcpy(&x, &i, 4); return x; }

// ---- conversions with a rounding mode: rn nearest even, rz toward zero, rd down, ru up, rna
// nearest with ties away. Float to integer saturates and takes NaN to 0, as the device's cast.
namespace opkg_sim {
namespace simt {
template <char M>
inline double round_as(double x) {
    if (M == 'n') return std::nearbyint(x);     // the default FE_TONEAREST mode: ties to even
    if (M == 'z') return std::trunc(x);
    if (M == 'd') return std::floor(x);
    if (M == 'u') return std::ceil(x);
    return std::round(x);                        // 'a': ties away from zero
}
template <typename I, char M>
inline I float_to_int(float f) {
    if (f != f) return 0;
    const double r = round_as<M>(double(f));
    if (r <= double(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
    if (r >= double(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
    return I(r);
}
// An integer to float with the given rounding: the exact value's neighbours in float.
template <char M, typename I>
inline float int_to_float(I v) {
    const float near = float(v);                  // nearest even (the CPU's conversion)
    if (M == 'n') return near;
    const long double exact = (long double)v, got = (long double)near;
    if (got == exact) return near;
    const float down = got > exact ? std::nextafter(near, -INFINITY) : near;
    const float up = got < exact ? std::nextafter(near, INFINITY) : near;
    if (M == 'd') return down;
    if (M == 'u') return up;
    if (M == 'z') return v < 0 ? up : down;
    const long double dd = exact - (long double)down, du = (long double)up - exact;   // 'a'
    return dd < du ? down : du < dd ? up : (v < 0 ? down : up);
}
}  // namespace simt
}  // namespace opkg_sim

#define OPKG_SIMT_F2I(suffix, M)                                                                                   \
    inline int __float2int_##suffix(float f) { return opkg_sim::simt::float_to_int<int, M>(f); }                  \
    inline unsigned int __float2uint_##suffix(float f) { return opkg_sim::simt::float_to_int<unsigned int, M>(f); } \
    inline long long __float2ll_##suffix(float f) { return opkg_sim::simt::float_to_int<long long, M>(f); }       \
    inline unsigned long long __float2ull_##suffix(float f) {                                                     \
        return opkg_sim::simt::float_to_int<unsigned long long, M>(f);                                            \
    }                                                                                                             \
    inline float __float2float_##suffix(float f) { return float(opkg_sim::simt::round_as<M>(double(f))); }      \
    inline float __int2float_##suffix(int v) { return opkg_sim::simt::int_to_float<M>(v); }                      \
    inline float __uint2float_##suffix(unsigned int v) { return opkg_sim::simt::int_to_float<M>(v); }            \
    inline float __ll2float_##suffix(long long v) { return opkg_sim::simt::int_to_float<M>(v); }                 \
    inline float __ull2float_##suffix(unsigned long long v) { return opkg_sim::simt::int_to_float<M>(v); }
OPKG_SIMT_F2I(rn, 'n')
OPKG_SIMT_F2I(rz, 'z')
OPKG_SIMT_F2I(rd, 'd')
OPKG_SIMT_F2I(ru, 'u')
OPKG_SIMT_F2I(rna, 'a')
#undef OPKG_SIMT_F2I

// ---- half and bfloat16 (asc_fp16.h, asc_bf16.h) ----
inline float __half2float(half h) { return float(h); }
inline half __float2half(float f) { return half(f); }
inline half __float2half_rn(float f) { return half(f); }
inline half __float2half_rz(float f) {
    const half n = half(f);
    if (float(n) == f || f != f) return n;
    if (std::fabs(float(n)) <= std::fabs(f)) return n;
    uint16_t bits;                                  // one step toward zero: the magnitude's bits - 1
    std::memcpy(&bits, &n, 2);
    --bits;
    half r;
    std::memcpy(&r, &bits, 2);
    return r;
}
inline float __bfloat162float(bfloat16_t b) { return float(b); }
inline bfloat16_t __float2bfloat16(float f) { return bfloat16_t(f); }
inline bfloat16_t __float2bfloat16_rn(float f) { return bfloat16_t(f); }
inline bfloat16_t __float2bfloat16_rz(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    bfloat16_t b;
    b.bits = (u & 0x7fffffffu) > 0x7f800000u ? uint16_t((u >> 16) | 0x40) : uint16_t(u >> 16);
    return b;
}
// The SIMT math API's float classification at global scope (its math_functions.h declares
// isfinite/isnan/isinf(float)); kernels call them unqualified (ops-nn's adaptive_max_pool3d).
using std::isfinite;
using std::isinf;
using std::isnan;
inline bool __hisnan(half h) { return h != h; }
inline bool __hisinf(half h) { return std::isinf(float(h)); }
inline bool __hisnan(bfloat16_t b) { return float(b) != float(b); }
inline bool __hisinf(bfloat16_t b) { return std::isinf(float(b)); }
#define OPKG_SIMT_H1(name, expr)                                          \
    inline half name(half a) { const float x = float(a); return half(expr); } \
    inline bfloat16_t name(bfloat16_t a) { const float x = float(a); return bfloat16_t(expr); }
OPKG_SIMT_H1(hexp, std::exp(x))
OPKG_SIMT_H1(hexp2, std::exp2(x))
OPKG_SIMT_H1(hexp10, exp10f(x))
OPKG_SIMT_H1(hlog, std::log(x))
OPKG_SIMT_H1(hlog2, std::log2(x))
OPKG_SIMT_H1(hlog10, std::log10(x))
OPKG_SIMT_H1(hsqrt, std::sqrt(x))
OPKG_SIMT_H1(hrsqrt, 1.0f / std::sqrt(x))
OPKG_SIMT_H1(hrcp, 1.0f / x)
OPKG_SIMT_H1(hsin, std::sin(x))
OPKG_SIMT_H1(hcos, std::cos(x))
OPKG_SIMT_H1(htanh, std::tanh(x))
OPKG_SIMT_H1(hrint, std::nearbyint(x))
OPKG_SIMT_H1(hfloor, std::floor(x))
OPKG_SIMT_H1(hceil, std::ceil(x))
OPKG_SIMT_H1(htrunc, std::trunc(x))
OPKG_SIMT_H1(habs, std::fabs(x))
#undef OPKG_SIMT_H1
inline half __hadd(half a, half b) { return half(float(a) + float(b)); }
inline half __hsub(half a, half b) { return half(float(a) - float(b)); }
inline half __hmul(half a, half b) { return half(float(a) * float(b)); }
inline half __hdiv(half a, half b) { return half(float(a) / float(b)); }
inline half __hmax(half a, half b) { return a != a ? b : b != b ? a : (a < b ? b : a); }
inline half __hmin(half a, half b) { return a != a ? b : b != b ? a : (b < a ? b : a); }
inline half __hfma(half a, half b, half c) { return half(std::fma(double(a), double(b), double(c))); }

#endif
