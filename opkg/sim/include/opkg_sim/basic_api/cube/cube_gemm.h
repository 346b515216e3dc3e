// Mmad's arithmetic: one call per Mmad packs A (ZZ) and B (ZN) from their fractals, runs a
// register-blocked product over CO1's column-block layout and stores the m x n result. Defined
// once in the block runner (OPKG_SIM_RUNTIME_TU, -O2), not in each kernel object (-Og).
//
// Each C element is summed over k in order, its multiplication and addition each rounded, as
// the scalar i-k-j loop does: the result is the same to the bit whatever the vector width. The
// widest vectors the CPU has are picked at run time (x86: AVX-512, AVX2, else SSE; other CPUs:
// 16-byte generic vectors).
#ifndef OPKG_SIM_CUBE_GEMM_H
#define OPKG_SIM_CUBE_GEMM_H

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#if defined(__F16C__)
#include <immintrin.h>
#endif
#include "opkg_sim/basic_api/cube/cube_mem.h"

namespace AscendC {
namespace cube_detail {

// dst CO1 (NZ, cp0) = initial C + A (A2, ZZ) x B (B2, ZN) for the m x n x k of an Mmad. The initial
// C is `bias` (n values broadcast over the rows) when not null, else CO1's own values when
// `accumulate` (each must have been written by an Mmad: fails at `loc` otherwise), else zero.
// Fails at `loc` when an A or B element read was never loaded. Marks the m x n result written.
void mmad_run(float* cp0, opkg_sim::CubeArena& ca, const half* ap, const opkg_sim::CubeArena& aa, const half* bp,
              const opkg_sim::CubeArena& ba, const float* bias, bool accumulate, uint64_t m, uint64_t n, uint64_t k,
              opkg_sim::SrcLoc loc);
void mmad_run(float* cp0, opkg_sim::CubeArena& ca, const bfloat16_t* ap, const opkg_sim::CubeArena& aa,
              const bfloat16_t* bp, const opkg_sim::CubeArena& ba, const float* bias, bool accumulate, uint64_t m,
              uint64_t n, uint64_t k, opkg_sim::SrcLoc loc);
void mmad_run(int32_t* cp0, opkg_sim::CubeArena& ca, const int8_t* ap, const opkg_sim::CubeArena& aa, const int8_t* bp,
              const opkg_sim::CubeArena& ba, const int32_t* bias, bool accumulate, uint64_t m, uint64_t n, uint64_t k,
              opkg_sim::SrcLoc loc);
void mmad_run(float* cp0, opkg_sim::CubeArena& ca, const float* ap, const opkg_sim::CubeArena& aa, const float* bp,
              const opkg_sim::CubeArena& ba, const float* bias, bool accumulate, uint64_t m, uint64_t n, uint64_t k,
              opkg_sim::SrcLoc loc);

// c (m x n) += a (m x k) x b (k x n), all row-major, any n: the high-level Matmul's product
// (hl_matmul.h), by the same kernel and with the same bits as an i-k-j loop.
void ikj_accumulate(float* c, const float* a, const float* b, int64_t m, int64_t n, int64_t k);
void ikj_accumulate(int32_t* c, const int32_t* a, const int32_t* b, int64_t m, int64_t n, int64_t k);

// A float32 as the cube reads it in HF32 mode: the low 12 of its 23 mantissa bits rounded off to
// nearest, ties to even, or (`ties_away`) ties away from zero; infinities and NaNs as they are. A
// carry out of the mantissa into the exponent is right.
//
// The rounding of HF32's second trans mode, settled from asc-devkit: one control bit,
// HF32_TRANS_MODE_BIT, whichever API sets it: SetHF32TransMode(HF32TransMode::NEAREST_ZERO) and
// SetHF32TransMode(true) (impl/basic_api/kernel_operator_mm_intf_impl.h lines 698-710, the bit set
// in kernel_reg.h's SetHF32TransModeImpl) and Matmul's SetHF32(enable, transMode 1)
// (impl/adv_api/detail/matmul/matmul_impl_base.h lines 480-494 call SetHF32TransMode(1)). Matmul's
// SetHF32 documentation gives the rounding exactly: transMode 1 "round to nearest, a tie away from
// zero" (docs/zh/api/.../Matmul-Kernel侧接口/SetHF32.md line 46); SetHF32TransMode.md and
// asc_enable_hf32_trans.md call both modes rounding to nearest (四舍五入); ops-nn's HF32 golden
// (matmul_golden_util.py hf32_truncate_np, MatMulV3's SetHF32(true, 1)) rounds the magnitude half
// up, the same. Only the header's @note (kernel_operator_mm_intf_impl.h line 706, "rounding
// towards zero") reads as truncation; the documented rounding wins.
inline float hf32_of(float x, bool ties_away) {
    uint32_t u;
    std::memcpy(&u, &x, 4);
    if ((u & 0x7F800000u) == 0x7F800000u) return x;
    const uint32_t low = u & 0xFFFu, half = 0x800u;
    u &= ~0xFFFu;
    if (low > half || (low == half && (ties_away || (u & 0x1000u)))) u += 0x1000u;
    std::memcpy(&x, &u, 4);
    return x;
}

// A float operand as the cube reads it (SetHF32Mode): with HF32 on, rounded as hf32_of by the
// block's trans mode (SetHF32TransMode); other types as they are.
template <class A, class Acc>
inline void hf32_round(Acc* v, uint64_t n) {
    if constexpr (std::is_same<A, float>::value) {
        const opkg_sim::BlockState& b = opkg_sim::block();
        if (!b.hf32) return;
        for (uint64_t t = 0; t < n; ++t) v[t] = hf32_of(v[t], b.hf32_ties_away);
    }
}

}  // namespace cube_detail
}  // namespace AscendC

#ifdef OPKG_SIM_RUNTIME_TU
namespace AscendC {
namespace cube_detail {

#if defined(__x86_64__) || defined(__i386__)
namespace gemm_avx512 {
#pragma GCC push_options
#pragma GCC target("avx512f")
#define OPKG_GEMM_BYTES 64
#include "opkg_sim/basic_api/cube/cube_gemm_kernel.inc"
#undef OPKG_GEMM_BYTES
#pragma GCC pop_options
}  // namespace gemm_avx512
namespace gemm_avx2 {
#pragma GCC push_options
#pragma GCC target("avx2")
#define OPKG_GEMM_BYTES 32
#include "opkg_sim/basic_api/cube/cube_gemm_kernel.inc"
#undef OPKG_GEMM_BYTES
#pragma GCC pop_options
}  // namespace gemm_avx2
#endif
namespace gemm_base {
#define OPKG_GEMM_BYTES 16
#include "opkg_sim/basic_api/cube/cube_gemm_kernel.inc"
#undef OPKG_GEMM_BYTES
}  // namespace gemm_base

// The product for this CPU: its rows per tile (C and A are padded to a multiple) and entry.
template <class Acc>
struct GemmKernel {
    uint64_t rows;
    void (*run)(Acc*, uint64_t, uint64_t, const Acc*, const Acc*, uint64_t);
};

// OPKG_SIM_GEMM=avx2 or =base picks a narrower product than the CPU allows (to compare them:
// every width gives the same bits); read at each call, so a test can switch it.
template <class Acc>
inline GemmKernel<Acc> gemm_kernel() {
    const char* want = std::getenv("OPKG_SIM_GEMM");
    const std::string w = want ? want : "";
#if defined(__x86_64__) || defined(__i386__)
    if ((w.empty() || w == "avx512") && __builtin_cpu_supports("avx512f")) {
        return GemmKernel<Acc>{gemm_avx512::Shape<Acc>::MR, &gemm_avx512::gemm<Acc>};
    }
    if (w != "base" && __builtin_cpu_supports("avx2")) {
        return GemmKernel<Acc>{gemm_avx2::Shape<Acc>::MR, &gemm_avx2::gemm<Acc>};
    }
#endif
    return GemmKernel<Acc>{gemm_base::Shape<Acc>::MR, &gemm_base::gemm<Acc>};
}

template <class A, class Acc>
inline Acc gemm_in(A v) {
    return static_cast<Acc>(static_cast<float>(v));
}
template <>
inline int32_t gemm_in<int8_t, int32_t>(int8_t v) {
    return v;
}

// Sixteen elements converted at once (vectorised where the type allows).
template <class A, class Acc>
inline void gemm_in16(const A* s, Acc* d) {
    for (int t = 0; t < 16; ++t) d[t] = gemm_in<A, Acc>(s[t]);
}
#if defined(__F16C__)
// One vcvtph2ps per eight halves (the sim's x86 flags include F16C where the CPU has it).
template <>
inline void gemm_in16<half, float>(const half* s, float* d) {
    for (int q = 0; q < 16; q += 8) {
        _mm256_storeu_ps(d + q, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + q))));
    }
}
#endif

template <class A, class Acc>
void mmad_run_t(Acc* cp0, opkg_sim::CubeArena& ca, const A* ap, const opkg_sim::CubeArena& aa, const A* bp,
                const opkg_sim::CubeArena& ba, const Acc* bias, bool accumulate, uint64_t m, uint64_t n, uint64_t k,
                opkg_sim::SrcLoc loc) {
    using namespace opkg_sim;
    constexpr uint64_t c0 = cube_c0<A>();
    const uint64_t K1 = (k + c0 - 1) / c0, N1 = (n + 15) / 16, M1 = (m + 15) / 16;
    const GemmKernel<Acc> kern = gemm_kernel<Acc>();
    const uint64_t mr = kern.rows, mp = (m + mr - 1) / mr * mr;
    // Every element the product reads must hold a loaded value: a C0 run of a fractal row at a time.
    for (uint64_t i = 0; i < m; ++i) {
        for (uint64_t kb = 0; kb < K1; ++kb) {
            const uint64_t len = k - kb * c0 < c0 ? k - kb * c0 : c0;
            if (!cube_defined(aa, ap + ((i / 16) * K1 + kb) * 16 * c0 + (i % 16) * c0, len * sizeof(A))) {
                fail(loc, format("Mmad reads A2 elements of row %llu, k %llu..%llu that were never loaded (or were "
                                 "loaded from GM bytes holding no value): A holds fewer than m = %llu rows or k = %llu "
                                 "columns", (unsigned long long)i, (unsigned long long)(kb * c0),
                                 (unsigned long long)(kb * c0 + len - 1), (unsigned long long)m, (unsigned long long)k));
            }
        }
    }
    for (uint64_t j = 0; j < n; ++j) {
        for (uint64_t kb = 0; kb < K1; ++kb) {
            const uint64_t len = k - kb * c0 < c0 ? k - kb * c0 : c0;
            if (!cube_defined(ba, bp + (kb * N1 + j / 16) * 16 * c0 + (j % 16) * c0, len * sizeof(A))) {
                fail(loc, format("Mmad reads B2 elements of column %llu, k %llu..%llu that were never loaded: B holds "
                                 "fewer than k = %llu rows or n = %llu columns (a K mismatch between A and B?)",
                                 (unsigned long long)j, (unsigned long long)(kb * c0), (unsigned long long)(kb * c0 + len - 1),
                                 (unsigned long long)k, (unsigned long long)n));
            }
        }
    }
    // Scratch per thread (blocks may run on threads), reused from call to call.
    thread_local std::vector<Acc> av, bv, cv;
    av.resize(mp * k);
    bv.resize(N1 * k * 16);
    cv.resize(N1 * mp * 16);
    // A: row-major, mp x k (rows past m zero), from the C0 runs of its fractal rows
    std::memset(av.data() + m * k, 0, (mp - m) * k * sizeof(Acc));
    Acc run[c0 < 16 ? 16 : c0];
    for (uint64_t i = 0; i < m; ++i) {
        Acc* d = av.data() + i * k;
        for (uint64_t kb = 0; kb < K1; ++kb) {
            const A* s = ap + ((i / 16) * K1 + kb) * 16 * c0 + (i % 16) * c0;
            const uint64_t w = k - kb * c0 < c0 ? k - kb * c0 : c0;
            if constexpr (c0 >= 16) {
                for (uint64_t t = 0; t < c0; t += 16) gemm_in16<A, Acc>(s + t, run + t);
            } else {
                for (uint64_t t = 0; t < c0; ++t) run[t] = gemm_in<A, Acc>(s[t]);
            }
            hf32_round<A, Acc>(run, c0);
            std::memcpy(d + kb * c0, run, w * sizeof(Acc));
        }
    }
    // B: fractal (kb, jb) holds 16 columns of C0 k values each -> block jb, [kk][16]; zero past n.
    // Each column's C0 values are converted at once, then spread over the rows.
    for (uint64_t jb = 0; jb < N1; ++jb) {
        Acc* d = bv.data() + jb * k * 16;
        const uint64_t cols = n - jb * 16 < 16 ? n - jb * 16 : 16;
        for (uint64_t kb = 0; kb < K1; ++kb) {
            const A* s = bp + (kb * N1 + jb) * 16 * c0;
            const uint64_t w = k - kb * c0 < c0 ? k - kb * c0 : c0;
            Acc* rows = d + kb * c0 * 16;
            for (uint64_t jj = 0; jj < 16; ++jj) {
                if (jj < cols) {
                    if constexpr (c0 >= 16) {
                        for (uint64_t t = 0; t < c0; t += 16) gemm_in16<A, Acc>(s + jj * c0 + t, run + t);
                    } else {
                        for (uint64_t t = 0; t < c0; ++t) run[t] = gemm_in<A, Acc>(s[jj * c0 + t]);
                    }
                    hf32_round<A, Acc>(run, c0);
                    for (uint64_t t = 0; t < w; ++t) rows[t * 16 + jj] = run[t];
                } else {
                    for (uint64_t t = 0; t < w; ++t) rows[t * 16 + jj] = Acc(0);
                }
            }
        }
    }
    // The initial C, in CO1's column-block layout with mp rows per block.
    for (uint64_t jb = 0; jb < N1; ++jb) {
        Acc* d = cv.data() + jb * mp * 16;
        const uint64_t cols = n - jb * 16 < 16 ? n - jb * 16 : 16;
        if (bias) {
            for (uint64_t i = 0; i < m; ++i) {
                for (uint64_t jj = 0; jj < 16; ++jj) d[i * 16 + jj] = jj < cols ? bias[jb * 16 + jj] : Acc(0);
            }
        } else if (accumulate) {
            const Acc* s = cp0 + jb * M1 * 256;
            for (uint64_t i = 0; i < m; ++i) {
                if (!cube_defined(ca, s + i * 16, cols * sizeof(Acc))) {
                    uint64_t j = 0;
                    while (cube_defined(ca, s + i * 16 + j, sizeof(Acc))) ++j;
                    fail(loc, format("Mmad accumulates (cmatrixInitVal = false) onto CO1 element (%llu, %llu), which "
                                     "no Mmad wrote yet: the first Mmad into a CO1 tile must set cmatrixInitVal = true",
                                     (unsigned long long)i, (unsigned long long)(jb * 16 + j)));
                }
                std::memcpy(d + i * 16, s + i * 16, cols * sizeof(Acc));
                std::memset(d + i * 16 + cols, 0, (16 - cols) * sizeof(Acc));
            }
        } else {
            std::memset(d, 0, m * 16 * sizeof(Acc));
        }
        std::memset(d + m * 16, 0, (mp - m) * 16 * sizeof(Acc));
    }
    kern.run(cv.data(), mp, N1, av.data(), bv.data(), k);
    for (uint64_t jb = 0; jb < N1; ++jb) {
        const uint64_t cols = n - jb * 16 < 16 ? n - jb * 16 : 16;
        Acc* d = cp0 + jb * M1 * 256;
        const Acc* s = cv.data() + jb * mp * 16;
        if (cols == 16) {   // whole rows: the block's m rows are one run in CO1
            std::memcpy(d, s, m * 16 * sizeof(Acc));
            cube_mark_written(ca, d, m * 16 * sizeof(Acc));
        } else {
            for (uint64_t i = 0; i < m; ++i) {
                std::memcpy(d + i * 16, s + i * 16, cols * sizeof(Acc));
                cube_mark_written(ca, d + i * 16, cols * sizeof(Acc));
            }
        }
    }
}

template <class Acc>
void ikj_accumulate_t(Acc* c, const Acc* a, const Acc* b, uint64_t m, uint64_t n, uint64_t k) {
    if (!m || !n) return;
    const GemmKernel<Acc> kern = gemm_kernel<Acc>();
    const uint64_t mr = kern.rows, mp = (m + mr - 1) / mr * mr, N1 = (n + 15) / 16;
    thread_local std::vector<Acc> av, bv, cv;
    av.assign(mp * k, Acc(0));
    std::memcpy(av.data(), a, m * k * sizeof(Acc));
    bv.assign(N1 * k * 16, Acc(0));
    cv.assign(N1 * mp * 16, Acc(0));
    for (uint64_t jb = 0; jb < N1; ++jb) {
        const uint64_t cols = n - jb * 16 < 16 ? n - jb * 16 : 16;
        for (uint64_t kk = 0; kk < k; ++kk) std::memcpy(&bv[(jb * k + kk) * 16], b + kk * n + jb * 16, cols * sizeof(Acc));
        for (uint64_t i = 0; i < m; ++i) std::memcpy(&cv[(jb * mp + i) * 16], c + i * n + jb * 16, cols * sizeof(Acc));
    }
    kern.run(cv.data(), mp, N1, av.data(), bv.data(), k);
    for (uint64_t jb = 0; jb < N1; ++jb) {
        const uint64_t cols = n - jb * 16 < 16 ? n - jb * 16 : 16;
        for (uint64_t i = 0; i < m; ++i) std::memcpy(c + i * n + jb * 16, &cv[(jb * mp + i) * 16], cols * sizeof(Acc));
    }
}
void ikj_accumulate(float* c, const float* a, const float* b, int64_t m, int64_t n, int64_t k) {
    ikj_accumulate_t(c, a, b, uint64_t(m), uint64_t(n), uint64_t(k));
}
void ikj_accumulate(int32_t* c, const int32_t* a, const int32_t* b, int64_t m, int64_t n, int64_t k) {
    ikj_accumulate_t(c, a, b, uint64_t(m), uint64_t(n), uint64_t(k));
}

void mmad_run(float* cp0, opkg_sim::CubeArena& ca, const half* ap, const opkg_sim::CubeArena& aa, const half* bp,
              const opkg_sim::CubeArena& ba, const float* bias, bool accumulate, uint64_t m, uint64_t n, uint64_t k,
              opkg_sim::SrcLoc loc) {
    mmad_run_t(cp0, ca, ap, aa, bp, ba, bias, accumulate, m, n, k, loc);
}
void mmad_run(float* cp0, opkg_sim::CubeArena& ca, const bfloat16_t* ap, const opkg_sim::CubeArena& aa,
              const bfloat16_t* bp, const opkg_sim::CubeArena& ba, const float* bias, bool accumulate, uint64_t m,
              uint64_t n, uint64_t k, opkg_sim::SrcLoc loc) {
    mmad_run_t(cp0, ca, ap, aa, bp, ba, bias, accumulate, m, n, k, loc);
}
void mmad_run(int32_t* cp0, opkg_sim::CubeArena& ca, const int8_t* ap, const opkg_sim::CubeArena& aa, const int8_t* bp,
              const opkg_sim::CubeArena& ba, const int32_t* bias, bool accumulate, uint64_t m, uint64_t n, uint64_t k,
              opkg_sim::SrcLoc loc) {
    mmad_run_t(cp0, ca, ap, aa, bp, ba, bias, accumulate, m, n, k, loc);
}
void mmad_run(float* cp0, opkg_sim::CubeArena& ca, const float* ap, const opkg_sim::CubeArena& aa, const float* bp,
              const opkg_sim::CubeArena& ba, const float* bias, bool accumulate, uint64_t m, uint64_t n, uint64_t k,
              opkg_sim::SrcLoc loc) {
    mmad_run_t(cp0, ca, ap, aa, bp, ba, bias, accumulate, m, n, k, loc);
}

}  // namespace cube_detail
}  // namespace AscendC
#endif
#endif
