// The temporary space of the high-level vector APIs: one table shared by the kernel-side checks
// (hlapi.h) and the host tiling helpers (hl_tiling.h), so both always agree. docs/api.md lists it.
#ifndef OPKG_SIM_HL_RULES_H
#define OPKG_SIM_HL_RULES_H

#include <cstdint>

namespace opkg_sim {

// Temporary space an API needs, in bytes: `live` float temporaries of one 32-element block each
// (the kernel splits calCount into chunks of tmp / (live * 4) elements rounded down to 32, and a
// chunk of 0 elements is an error) plus `extra` bytes. isReuseSource lowers `live` for some
// float paths, as the CANN kernels do.
struct TmpRule {
    uint32_t live_half;
    uint32_t live_float;
    uint32_t live_float_reuse;
    uint32_t extra;
};

inline uint32_t tmp_live(const TmpRule& r, uint32_t type_size, bool reuse) {
    if (type_size == 2) return r.live_half;
    return reuse ? r.live_float_reuse : r.live_float;
}

inline uint64_t tmp_min_bytes(const TmpRule& r, uint32_t type_size, bool reuse) {
    uint32_t live = tmp_live(r, type_size, reuse);
    if (!live && !r.extra) return 0;
    return uint64_t(live) * 32u * sizeof(float) + r.extra;
}

// The most temporary space the API can use for `count` elements (more is never touched).
inline uint64_t tmp_max_bytes(const TmpRule& r, uint32_t type_size, bool reuse, uint64_t count) {
    uint32_t live = tmp_live(r, type_size, reuse);
    if (!live && !r.extra) return 0;
    uint64_t elems = (count + 31) / 32 * 32;
    if (elems < 32) elems = 32;
    return uint64_t(live) * elems * sizeof(float) + r.extra;
}

template <class T> inline uint64_t tmp_min_bytes(const TmpRule& r, bool reuse) {
    return tmp_min_bytes(r, uint32_t(sizeof(T)), reuse);
}

// The CANN kernels' live float temporaries per element (half, float, float with isReuseSource).
namespace rules {
constexpr TmpRule Sin{4, 3, 2, 0}, Cos{4, 3, 2, 0}, Tan{10, 4, 4, 0}, Asin{6, 4, 4, 0}, Acos{6, 4, 4, 0},
    Atan{6, 5, 5, 0}, Sinh{4, 1, 1, 0}, Cosh{6, 2, 2, 0}, Tanh{2, 1, 1, 0}, Asinh{3, 3, 3, 0}, Acosh{2, 1, 1, 0},
    Atanh{4, 1, 1, 0}, Erf{8, 3, 3, 0}, Erfc{12, 5, 5, 0}, Digamma{8, 7, 6, 0}, Lgamma{13, 8, 7, 0},
    Floor{1, 1, 1, 0}, Ceil{2, 1, 1, 0}, Round{2, 1, 1, 0}, Trunc{2, 1, 1, 0}, Frac{2, 1, 1, 0}, Sign{3, 3, 3, 0},
    Log2{1, 0, 0, 0}, Log{0, 0, 0, 0}, Log10{0, 0, 0, 0}, Sigmoid{1, 1, 1, 0}, Exp{4, 3, 2, 0}, Clamp{1, 1, 1, 0},
    Fmod{4, 1, 1, 0}, Axpy{2, 1, 1, 0};
// Activations: GeGLU and SwiGLU widen half only; where CANN's factor is not public, one.
// Xor keeps 32 elements of T (int16) per chunk.
constexpr TmpRule Xor{0, 0, 0, 64};
constexpr TmpRule Gelu{1, 1, 1, 0}, GeGLU{2, 0, 0, 0}, SwiGLU{2, 0, 0, 0}, ReGlu{1, 0, 0, 0};

// Power: 256 bytes plus live temporaries that depend on the operand kinds, the dtype and the SoC.
inline TmpRule power(bool scalar_operand, bool is_int, bool v200) {
    uint32_t half_live = v200 ? 8 : 7;
    uint32_t float_live = scalar_operand ? (v200 ? 6 : 5) : (v200 ? 5 : 4);
    uint32_t int_live = scalar_operand ? (v200 ? 8 : 7) : (v200 ? 7 : 6);
    uint32_t f = is_int ? int_live : float_live;
    return TmpRule{half_live, f, f, 256};
}
}  // namespace rules

// The least sharedTmpBuffer (bytes) Sum and Mean need: one partial result per first-round repeat,
// rounded up to 32 bytes; Mean of half in float also keeps the row in float.
inline uint64_t sum_tmp_bytes(uint32_t n, uint32_t type_size) {
    const uint64_t repeats = (uint64_t(n) * type_size + 255) / 256;
    return (repeats * type_size + 31) / 32 * 32;
}
inline uint64_t mean_tmp_bytes(uint32_t n, uint32_t inner, uint32_t type_size, uint32_t acc_size) {
    if (acc_size > type_size) return uint64_t(inner) * acc_size + (uint64_t(n + 63) / 64 + 31) / 32 * 32;
    return ((uint64_t(n) * type_size + 255) / 256 + 31) / 32 * 32;
}

// SoftMax: one row widened to float plus two 32-byte blocks (its max and sum); the sim's model,
// CANN does not publish the factor.
inline uint64_t softmax_tmp_bytes(uint32_t srcK, uint32_t type_size) {
    (void)type_size;
    return uint64_t(srcK) * 4 + 64;
}

// SelectWithBytesMask: 1024 bytes, plus a compacted copy of the mask when it is wider than the
// source rows and may not be reused.
inline uint64_t select_bytes_tmp(uint64_t count, uint32_t mask_size, bool reuse_mask, bool compact) {
    uint64_t need = 1024;
    if (!reuse_mask && compact) need += (count * mask_size + 31) / 32 * 32;
    return need;
}


// The row-wise libraries (normalization, AscendDequant/AntiQuant, Pad/UnPad): CANN does
// not publish their host formulas, so the sim's model is `live` float copies (Pad: copies of T) of
// the unit the API works on at once (a row of H, a group, a B x 8 column strip), each rounded up
// to 32 bytes. The minimum holds one unit, the maximum every unit of the shape. LayerNormGrad's
// counts are CANN's own (LAYERNORM_GRAD_{HALF,FLOAT,REUSE_FLOAT}_BUF_NUM in its tiling header).
struct RowRule {
    uint32_t live_half;
    uint32_t live_float;
    uint32_t live_float_reuse;
};

inline uint64_t unit_tmp_bytes(const RowRule& r, uint32_t type_size, bool reuse, uint64_t unit_bytes,
                               uint64_t units = 1) {
    const uint32_t live = type_size == 2 ? r.live_half : (reuse ? r.live_float_reuse : r.live_float);
    return uint64_t(live) * ((unit_bytes + 31) / 32 * 32) * units;
}

namespace rules {
constexpr RowRule LayerNorm{3, 2, 1}, RmsNorm{2, 1, 1}, DeepNorm{3, 2, 2}, Normalize{2, 1, 1}, BatchNorm{3, 2, 2},
    GroupNorm{3, 2, 2}, LayerNormGrad{9, 6, 4}, LayerNormGradBeta{4, 2, 1}, AscendDequant{1, 1, 1},
    AscendAntiQuant{2, 2, 2}, Pad{1, 1, 1};
// Elementwise: AscendQuant converts float to half first; WelfordUpdate keeps d and x - mean'.
constexpr TmpRule AscendQuant{1, 1, 1, 0}, WelfordUpdate{3, 2, 2, 0};
// WelfordFinalize: CANN's four float temporaries (two outputs, weighted means, deviations).
constexpr TmpRule WelfordFinalize{4, 4, 4, 0};
// ReduceXorSum (int16): the xor result and its widened copy for the sum.
constexpr TmpRule ReduceXorSum{2, 2, 2, 0};
}  // namespace rules

// Broadcast along the last axis ([m, 1] -> [m, n]) spreads each source element over one 32-byte
// block first (m blocks); along the first axis it copies rows and needs none. Real operators
// (cann-ops rms_norm, add_layer_norm) size their buffer from this: m x 256 bytes at most.
inline uint64_t broadcast_tmp_bytes(uint64_t src_rows, uint64_t src_cols, uint64_t dst_cols) {
    return src_cols == 1 && dst_cols > 1 ? src_rows * 32 : 0;
}

// BatchNorm works on B rows of one 32-byte column strip (8 floats) at a time.
inline uint64_t batchnorm_tmp_bytes(uint32_t type_size, bool reuse, uint64_t B, uint64_t SH, bool whole) {
    return unit_tmp_bytes(rules::BatchNorm, type_size, reuse, B * 32, whole ? (SH + 7) / 8 : 1);
}

// TopK: the sorted (value, index) pairs of one row of inner elements, twice (the merge's source
// and destination), plus the index row; Small mode sorts all outter rows of 32 at once.
inline uint64_t topk_tmp_bytes(uint64_t inner, uint64_t outter, bool small) {
    const uint64_t rows = small ? outter : 1;
    return (inner * 8 * 2 + inner * 4) * rows;
}

}  // namespace opkg_sim
#endif
