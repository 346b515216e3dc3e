// Host tiling helpers of the normalization, quantization, pad, sort and transpose libraries and
// ReduceXorSum, with CANN 8.1's names and signatures (lib/normalization/*_tiling.h,
// lib/quantization/*_tiling.h, lib/pad/*_tiling.h, lib/sort/topk_tiling.h,
// lib/transpose/confusion_transpose_tiling.h, lib/reduce/reduce_xor_sum_tiling.h). The sizes come from hl_rules.h, the table the
// kernel-side checks use, so a buffer of the minimum passes and one byte block less is reported.
// The tiling-info functions fill the fields the sim's kernels read (shape, valid length) and the
// derived sizes for one pass over as many rows as the given stack buffer holds.
#ifndef OPKG_SIM_HL_TILING_LIB_H
#define OPKG_SIM_HL_TILING_LIB_H

#include <cstdint>
#include <cstring>
#include "graph/tensor.h"
#include "graph/types.h"
#include "opkg_sim/adv_api/hl_rules.h"
#include "lib/normalization/layernorm_tilingdata.h"
#include "lib/normalization/rmsnorm_tilingdata.h"
#include "lib/normalization/batchnorm_tilingdata.h"
#include "lib/normalization/deepnorm_tilingdata.h"
#include "lib/normalization/groupnorm_tilingdata.h"
#include "lib/normalization/layernorm_grad_tilingdata.h"
#include "lib/normalization/layernorm_grad_beta_tilingdata.h"
#include "lib/pad/pad_tilingdata.h"
#include "lib/sort/topk_tilingdata.h"
#include "lib/transpose/confusion_transpose_tilingdata.h"

namespace platform_ascendc { class PlatformAscendC; }

namespace opkg_sim {

// A shape as [rows, last]: the last dimension and the product of the others.
struct RowsLast {
    uint64_t rows;
    uint64_t last;
};
inline RowsLast rows_last(const ge::Shape& s) {
    const size_t n = s.GetDimNum();
    if (!n) return {0, 0};
    const int64_t last = s.GetDim(n - 1);
    uint64_t rows = 1;
    for (size_t i = 0; i + 1 < n; ++i) rows *= uint64_t(s.GetDim(i) > 0 ? s.GetDim(i) : 0);
    return {rows, uint64_t(last > 0 ? last : 0)};
}
inline uint32_t dim_or(const ge::Shape& s, size_t i, uint32_t dflt) {
    return i < s.GetDimNum() && s.GetDim(i) > 0 ? uint32_t(s.GetDim(i)) : dflt;
}

// min/max of a row-wise API over `units` units of `unit_bytes` each.
inline void row_max_min(const RowRule& r, uint32_t type_size, bool reuse, uint64_t unit_bytes, uint64_t units,
                        uint32_t& max_value, uint32_t& min_value) {
    const uint64_t lo = unit_tmp_bytes(r, type_size, reuse, unit_bytes);
    const uint64_t hi = unit_tmp_bytes(r, type_size, reuse, unit_bytes, units ? units : 1);
    min_value = uint32_t(lo);
    max_value = uint32_t(hi < lo ? lo : hi);
}

// Rows of `unit` bytes one pass can hold in `stack` bytes (at least one).
inline uint32_t rows_per_pass(uint64_t stack, uint64_t per_row, uint64_t rows) {
    uint64_t k = per_row ? stack / per_row : rows;
    if (k < 1) k = 1;
    if (k > rows) k = rows;
    return uint32_t(k);
}

inline uint32_t float_bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

// The fields LayerNormTiling and DeepNormTiling share: a [B, S, H] input walked k rows (of H) per
// pass, with the mean/variance per row; `oh` is the unpadded H the mean divides by.
template <class Tiling>
inline void fill_bsh_norm_tiling(Tiling& tiling, uint32_t B, uint32_t S, uint32_t H, uint32_t oh, uint32_t k,
                                 uint32_t tmp_bufs, uint32_t stack_bytes) {
    tiling.set_bLength(B);
    tiling.set_sLength(S);
    tiling.set_hLength(H);
    tiling.set_originalHLength(oh);
    tiling.set_inputXSize(B * S * H);
    tiling.set_meanVarSize(B * S);
    tiling.set_numberOfTmpBuf(tmp_bufs);
    tiling.set_tmpBufSize(stack_bytes / 4);
    tiling.set_oneTmpSize(k * H);
    tiling.set_loopRound(B * S / k);
    tiling.set_inputRoundSize(k * H);
    tiling.set_inputTailSize(B * S % k * H);
    tiling.set_inputTailPos(B * S / k * k * H);
    tiling.set_meanVarRoundSize(k);
    tiling.set_meanVarTailSize(B * S % k);
    tiling.set_meanVarTailPos(B * S / k * k);
    tiling.set_bshCurLength(k * H);
    tiling.set_bsCurLength(k);
    tiling.set_lastDimValueBack(oh ? 1.0f / float(oh) : 0.0f);
}

}  // namespace opkg_sim

namespace AscendC {

// ---- LayerNorm ([B, S, H] with LayerNormTiling; [A, R] with LayerNormSeparateTiling) ----
inline void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
    const opkg_sim::RowsLast s = opkg_sim::rows_last(srcShape);
    opkg_sim::row_max_min(opkg_sim::rules::LayerNorm, typeSize, isReuseSource, s.last * 4, s.rows, maxValue, minValue);
}
inline void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      const bool isComputeRstd, const bool isOnlyOutput, uint32_t& maxValue,
                                      uint32_t& minValue) {
    (void)isComputeRstd;
    (void)isOnlyOutput;
    GetLayerNormMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue);
}
inline void GetNormalizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSizeU, const uint32_t typeSizeT,
                                      const bool isReuseSource, const bool isComputeRstd, const bool isOnlyOutput,
                                      uint32_t& maxValue, uint32_t& minValue) {
    (void)typeSizeU;
    (void)isComputeRstd;
    (void)isOnlyOutput;
    const opkg_sim::RowsLast s = opkg_sim::rows_last(srcShape);
    opkg_sim::row_max_min(opkg_sim::rules::Normalize, typeSizeT, isReuseSource, s.last * 4, s.rows, maxValue, minValue);
}
inline void GetWelfordUpdateMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSizeT, const uint32_t typeSizeU,
                                          const bool isReuseSource, const bool isInplace, uint32_t& maxValue,
                                          uint32_t& minValue) {
    (void)typeSizeU;
    (void)isInplace;
    const uint64_t lo = opkg_sim::tmp_min_bytes(opkg_sim::rules::WelfordUpdate, typeSizeT, isReuseSource);
    const uint64_t hi = opkg_sim::tmp_max_bytes(opkg_sim::rules::WelfordUpdate, typeSizeT, isReuseSource,
                                                opkg_sim::rows_last(srcShape).last);
    minValue = uint32_t(lo);
    maxValue = uint32_t(hi < lo ? lo : hi);
}
inline void GetWelfordFinalizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                            uint32_t& maxValue, uint32_t& minValue) {
    const uint64_t lo = opkg_sim::tmp_min_bytes(opkg_sim::rules::WelfordFinalize, typeSize, isReuseSource);
    const uint64_t hi = opkg_sim::tmp_max_bytes(opkg_sim::rules::WelfordFinalize, typeSize, isReuseSource,
                                                opkg_sim::rows_last(srcShape).last);
    minValue = uint32_t(lo);
    maxValue = uint32_t(hi < lo ? lo : hi);
}
inline bool GetRmsNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                    uint32_t& minValue, const bool isBasicBlock = false) {
    const opkg_sim::RowsLast s = opkg_sim::rows_last(srcShape);
    // the basic block: H a multiple of 64 elements and B * S of 8 rows
    if (isBasicBlock && (s.last % 64 || s.rows % 8)) return false;
    opkg_sim::row_max_min(opkg_sim::rules::RmsNorm, typeSize, false, s.last * 4, s.rows, maxValue, minValue);
    return s.rows && s.last;
}
inline bool GetDeepNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                     const bool isBasicBlock, uint32_t& maxValue, uint32_t& minValue) {
    const opkg_sim::RowsLast s = opkg_sim::rows_last(srcShape);
    if (isBasicBlock && (s.last % 64 || s.rows % 8)) return false;
    opkg_sim::row_max_min(opkg_sim::rules::DeepNorm, typeSize, isReuseSource, s.last * 4, s.rows, maxValue, minValue);
    return s.rows && s.last;
}
// BatchNorm: [B, S, H], statistics over B; originSrcShape's B is the valid one.
inline bool GetBatchNormMaxMinTmpSize(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                      const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                                      uint32_t& minValue, const bool isBasicBlock = false) {
    (void)isBasicBlock;
    const uint64_t B = opkg_sim::dim_or(originSrcShape, 0, 0);
    const uint64_t SH = srcShape.GetDimNum() ? opkg_sim::shape_count(srcShape) / opkg_sim::dim_or(srcShape, 0, 1) : 0;
    minValue = uint32_t(opkg_sim::batchnorm_tmp_bytes(typeSize, isReuseSource, B, SH, false));
    maxValue = uint32_t(opkg_sim::batchnorm_tmp_bytes(typeSize, isReuseSource, B, SH, true));
    if (maxValue < minValue) maxValue = minValue;
    return B && SH;
}
// GroupNorm: [N, C, H, W]; one group of C / groupNum channels at a time.
inline void GetGroupNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      const uint32_t groupNum, uint32_t& maxValue, uint32_t& minValue) {
    const uint64_t N = opkg_sim::dim_or(srcShape, 0, 0), C = opkg_sim::dim_or(srcShape, 1, 0);
    const uint64_t HW = N && C ? opkg_sim::shape_count(srcShape) / (N * C) : 0;
    const uint64_t g = groupNum ? groupNum : 1;
    opkg_sim::row_max_min(opkg_sim::rules::GroupNorm, typeSize, isReuseSource, C / g * HW * 4, N * g, maxValue,
                          minValue);
}
inline void GetLayerNormGradMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                          uint32_t& maxValue, uint32_t& minValue) {
    const opkg_sim::RowsLast s = opkg_sim::rows_last(srcShape);
    opkg_sim::row_max_min(opkg_sim::rules::LayerNormGrad, typeSize, isReuseSource, s.last * 4, s.rows, maxValue,
                          minValue);
}
inline void GetLayerNormGradBetaMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                              const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    const opkg_sim::RowsLast s = opkg_sim::rows_last(srcShape);
    opkg_sim::row_max_min(opkg_sim::rules::LayerNormGradBeta, typeSize, isReuseSource, s.last * 4, s.rows, maxValue,
                          minValue);
}

inline void GetReduceXorSumMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                         const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    opkg_sim::max_min(opkg_sim::rules::ReduceXorSum, srcShape, typeSize, isReuseSource, maxValue, minValue);
}

// ---- Quantization ----
inline void GetAscendQuantMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                        uint32_t& minValue) {
    opkg_sim::max_min(opkg_sim::rules::AscendQuant, srcShape, typeSize, false, maxValue, minValue);
}
// AscendDequant: srcShape [m, n] of int32; one row of n in float at a time.
inline void GetAscendDequantMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                          uint32_t& minValue) {
    const opkg_sim::RowsLast s = opkg_sim::rows_last(srcShape);
    opkg_sim::row_max_min(opkg_sim::rules::AscendDequant, typeSize, false, s.last * 4, s.rows, maxValue, minValue);
}
// AscendAntiQuant: one row of the source (its last dimension) in float at a time.
inline void GetAscendAntiQuantMaxMinTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                            ge::DataType inputDataType, ge::DataType outputDataType,
                                            uint32_t& maxValue, uint32_t& minValue) {
    (void)scaleShape;
    (void)isTranspose;
    (void)inputDataType;
    const uint32_t out_size = outputDataType == ge::DT_FLOAT ? 4 : 2;
    const opkg_sim::RowsLast s = opkg_sim::rows_last(srcShape);
    opkg_sim::row_max_min(opkg_sim::rules::AscendAntiQuant, out_size, false, s.last * 4, s.rows, maxValue, minValue);
}
inline uint32_t GetAscendAntiQuantMaxTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                             ge::DataType inputDataType, ge::DataType outputDataType) {
    uint32_t hi = 0, lo = 0;
    GetAscendAntiQuantMaxMinTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType, hi, lo);
    return hi;
}
inline uint32_t GetAscendAntiQuantMinTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                             ge::DataType inputDataType, ge::DataType outputDataType) {
    uint32_t hi = 0, lo = 0;
    GetAscendAntiQuantMaxMinTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType, hi, lo);
    return lo;
}

// ---- Pad, UnPad, Broadcast: one row of T at a time ----
inline void GetPadMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                uint32_t& minValue) {
    const opkg_sim::RowsLast s = opkg_sim::rows_last(srcShape);
    opkg_sim::row_max_min(opkg_sim::rules::Pad, 4, false, s.last * typeSize, s.rows, maxValue, minValue);
}
inline void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC&, const ge::Shape& srcShape,
                                  const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue) {
    GetPadMaxMinTmpSize(srcShape, typeSize, maxValue, minValue);
}
inline void GetBroadCastMaxMinTmpSize(const platform_ascendc::PlatformAscendC&, const ge::Shape& srcShape,
                                      const ge::Shape& dstShape, uint32_t typeSize, const bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    (void)typeSize;
    const opkg_sim::RowsLast s = opkg_sim::rows_last(srcShape), d = opkg_sim::rows_last(dstShape);
    minValue = maxValue = uint32_t(opkg_sim::broadcast_tmp_bytes(s.rows, s.last, d.last));
}

// ---- TopK: false for an inner that is not a multiple of 32 (exactly 32 in Small mode) ----
inline bool GetTopKMaxMinTmpSize(const platform_ascendc::PlatformAscendC&, const int32_t inner, const int32_t outter,
                                 const bool isReuseSource, const bool isInitIndex, enum TopKMode mode,
                                 const bool isLargest, const uint32_t dataTypeSize, uint32_t& maxValue,
                                 uint32_t& minValue) {
    (void)isReuseSource;
    (void)isInitIndex;
    (void)isLargest;
    (void)dataTypeSize;
    const bool small = mode == TopKMode::TOPK_NSMALL;
    if (inner < 32 || inner % 32 || outter < 1 || (small && inner != 32)) return false;
    minValue = maxValue = uint32_t(opkg_sim::topk_tmp_bytes(uint64_t(inner), uint64_t(outter), small));
    return true;
}

// ---- ConfusionTranspose: srcShape is [B, N, S, H / N] for scenes 1 to 6, [H, W] for scene 7 ----
inline void GetConfusionTransposeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                               const uint32_t transposeTypeIn, uint32_t& maxValue,
                                               uint32_t& minValue) {
    (void)srcShape;
    const AscendC::TransposeType type = static_cast<AscendC::TransposeType>(transposeTypeIn);
    minValue = maxValue = type == TransposeType::TRANSPOSE_ND2ND_ONLY ? 0u : 256u * typeSize;
}

#ifndef OPKG_SIM_KERNEL
inline void GetConfusionTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                            const uint32_t typeSize, const uint32_t transposeTypeIn,
                                            optiling::ConfusionTransposeTiling& tiling) {
    (void)stackBufferSize;
    using TT = AscendC::TransposeType;
    const TT type = static_cast<TT>(transposeTypeIn);
    uint32_t p[18] = {0};
    p[0] = 32 / (typeSize ? typeSize : 4);   // blockSize: elements per 32 bytes
    if (type == TT::TRANSPOSE_ND2ND_ONLY) {
        const uint32_t H = opkg_sim::dim_or(srcShape, 0, 0), W = opkg_sim::dim_or(srcShape, 1, 0);
        p[1] = H;
        p[2] = W;
        p[3] = H / 16;   // highBlock
        p[4] = H / 16;   // stride
        p[5] = W / 16;   // repeat
    } else {
        const uint32_t B = opkg_sim::dim_or(srcShape, 0, 0), N = opkg_sim::dim_or(srcShape, 1, 0);
        const uint32_t S = opkg_sim::dim_or(srcShape, 2, 0), D = opkg_sim::dim_or(srcShape, 3, 0);
        const uint32_t H = N * D;
        p[1] = B;
        p[2] = N;
        if (type == TT::TRANSPOSE_NZ2ND_0213 || type == TT::TRANSPOSE_NZ2NZ_0213) {
            p[3] = (D + 15) / 16 * 16;   // alignA3
            p[4] = (S + 15) / 16 * 16;   // alignA2
        } else if (type == TT::TRANSPOSE_NZ2NZ_012_WITH_N) {
            p[3] = D;                    // hnDiv
            p[5] = H;                    // shapeH
            p[6] = H / 16;               // hBlockNum
            p[7] = (S + 15) / 16;        // sBlockNum
            p[8] = (H + 15) / 16 * 16;   // alignH
            p[9] = (S + 15) / 16 * 16;   // alignS
            p[10] = D / 16;              // hnDivBlockNum
            p[11] = (D + 15) / 16 * 16;  // alignHnDiv
        } else {
            p[3] = D;                    // hnDiv
            p[4] = H;                    // shapeH
            p[5] = H / 16;               // hBlockNum
            p[6] = (S + 15) / 16;        // sBlockNum
            p[7] = D / 16;               // hnDivBlockNum
            p[8] = type == TT::TRANSPOSE_NZ2ND_012_WITH_N ? (D + 15) / 16 * 16 : (H + 15) / 16 * 16;
        }
    }
    tiling.set_param0(p[0]); tiling.set_param1(p[1]); tiling.set_param2(p[2]); tiling.set_param3(p[3]);
    tiling.set_param4(p[4]); tiling.set_param5(p[5]); tiling.set_param6(p[6]); tiling.set_param7(p[7]);
    tiling.set_param8(p[8]); tiling.set_param9(p[9]); tiling.set_param10(p[10]); tiling.set_param11(p[11]);
    tiling.set_param12(p[12]); tiling.set_param13(p[13]); tiling.set_param14(p[14]); tiling.set_param15(p[15]);
    tiling.set_param16(p[16]); tiling.set_param17(p[17]);
}
inline void GetConfusionTransposeOnlyTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                                const uint32_t typeSize, optiling::ConfusionTransposeTiling& tiling) {
    GetConfusionTransposeTilingInfo(srcShape, stackBufferSize, typeSize,
                                    uint32_t(AscendC::TransposeType::TRANSPOSE_ND2ND_ONLY), tiling);
}

inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                           const int32_t outter, const int32_t k, const uint32_t dataTypeSize, const bool isInitIndex,
                           enum TopKMode mode, const bool isLargest, optiling::TopkTiling& topKTiling) {
    uint32_t hi = 0, lo = 0;
    if (!GetTopKMaxMinTmpSize(ascendcPlatform, inner, outter, false, isInitIndex, mode, isLargest, dataTypeSize, hi,
                              lo) || k < 1 || k > inner) {
        return false;
    }
    topKTiling.set_tmpLocalSize(int32_t(lo));
    topKTiling.set_allDataSize(inner * outter);
    topKTiling.set_innerDataSize(inner);
    topKTiling.set_sortRepeat(uint32_t(inner / 32));
    topKTiling.set_kAlignFourBytes((k + 7) / 8 * 8);
    topKTiling.set_kAlignTwoBytes((k + 15) / 16 * 16);
    topKTiling.set_srcIndexOffset(inner * 2);
    return true;
}

// ---- Tiling-info functions: shape fields, and one pass over as many rows as stackBufferSize holds ----
inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, optiling::LayerNormTiling& tiling) {
    const uint32_t B = opkg_sim::dim_or(srcShape, 0, 1), S = opkg_sim::dim_or(srcShape, 1, 1);
    const uint32_t H = uint32_t(opkg_sim::rows_last(srcShape).last);
    const uint64_t per_row = opkg_sim::unit_tmp_bytes(opkg_sim::rules::LayerNorm, typeSize, isReuseSource, H * 4ull);
    const uint32_t k = opkg_sim::rows_per_pass(stackBufferSize, per_row, uint64_t(B) * S);
    opkg_sim::fill_bsh_norm_tiling(tiling, B, S, H, H, k, typeSize == 2 ? 3 : (isReuseSource ? 1 : 2),
                                   stackBufferSize);
}
[[deprecated("GetLayerNormNDTillingInfo is deprecated, please use GetLayerNormNDTilingInfo instead!")]]
inline void GetLayerNormNDTillingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                      const uint32_t typeSize, const bool isReuseSource,
                                      optiling::LayerNormTiling& tilling) {
    GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, tilling);
}
inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, const bool isComputeRstd,
                                     optiling::LayerNormSeparateTiling& tiling) {
    (void)isComputeRstd;
    const opkg_sim::RowsLast s = opkg_sim::rows_last(srcShape);
    const uint64_t per_row = opkg_sim::unit_tmp_bytes(opkg_sim::rules::LayerNorm, typeSize, isReuseSource, s.last * 4);
    const uint32_t k = opkg_sim::rows_per_pass(stackBufferSize, per_row, s.rows);
    tiling.set_aLength(uint32_t(s.rows));
    tiling.set_rLength(uint32_t(s.last));
    tiling.set_k2Rec(s.last ? 1.0f / float(s.last) : 0.0f);
    tiling.set_k2RRec(s.last ? 1.0f / float(s.last) : 0.0f);
    tiling.set_inputXSize(uint32_t(s.rows * s.last));
    tiling.set_meanVarSize(uint32_t(s.rows));
    tiling.set_tmpBufSize(stackBufferSize / 4);
    tiling.set_oneTmpSize(uint32_t(k * s.last));
    tiling.set_loopRound(uint32_t(s.rows / k));
    tiling.set_arCurLength(uint32_t(k * s.last));
    tiling.set_aCurLength(k);
    tiling.set_rValueBack(s.last ? 1.0f / float(s.last) : 0.0f);
}
inline bool GetRmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                 optiling::RmsNormTiling& tiling, const bool isBasicBlock = false) {
    uint32_t hi = 0, lo = 0;
    if (!GetRmsNormMaxMinTmpSize(srcShape, typeSize, hi, lo, isBasicBlock) || stackBufferByteSize < lo) return false;
    const uint32_t B = opkg_sim::dim_or(srcShape, 0, 1), S = opkg_sim::dim_or(srcShape, 1, 1);
    const uint32_t H = uint32_t(opkg_sim::rows_last(srcShape).last);
    const uint32_t oh = uint32_t(opkg_sim::rows_last(originSrcShape).last);
    const uint32_t k = opkg_sim::rows_per_pass(stackBufferByteSize, lo, uint64_t(B) * S);
    tiling.set_bLength(B);
    tiling.set_sLength(S);
    tiling.set_hLength(H);
    tiling.set_originalHLength(oh ? oh : H);
    tiling.set_reciprocalOfHLength(1.0f / float(oh ? oh : H));
    tiling.set_mainBshLength(k * H);
    tiling.set_mainBsLength(k);
    tiling.set_mainBsLengthAlign((k + 7) / 8 * 8);
    tiling.set_loopRound(B * S / k);
    tiling.set_inputTailPos(B * S / k * k * H);
    tiling.set_tailBshLength(B * S % k * H);
    tiling.set_tailBsLength(B * S % k);
    return true;
}
inline bool GetDeepNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                  const uint32_t stackBufferSize, const uint32_t typeSize, const bool isReuseSource,
                                  const bool isBasicBlock, optiling::DeepNormTiling& tiling) {
    uint32_t hi = 0, lo = 0;
    if (!GetDeepNormMaxMinTmpSize(srcShape, typeSize, isReuseSource, isBasicBlock, hi, lo) || stackBufferSize < lo) {
        return false;
    }
    const uint32_t B = opkg_sim::dim_or(srcShape, 0, 1), S = opkg_sim::dim_or(srcShape, 1, 1);
    const uint32_t H = uint32_t(opkg_sim::rows_last(srcShape).last);
    const uint32_t oh = uint32_t(opkg_sim::rows_last(originSrcShape).last);
    const uint32_t k = opkg_sim::rows_per_pass(stackBufferSize, lo, uint64_t(B) * S);
    opkg_sim::fill_bsh_norm_tiling(tiling, B, S, H, oh ? oh : H, k, typeSize == 2 ? 3 : 2, stackBufferSize);
    return true;
}
inline bool GetBatchNormNDTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                     const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                     const bool isReuseSource, optiling::BatchNormTiling& tilling,
                                     const bool isBasicBlock = false) {
    uint32_t hi = 0, lo = 0;
    if (!GetBatchNormMaxMinTmpSize(srcShape, originSrcShape, typeSize, isReuseSource, hi, lo, isBasicBlock) ||
        stackBufferByteSize < lo) {
        return false;
    }
    const uint32_t B = opkg_sim::dim_or(originSrcShape, 0, 1);
    const uint32_t SH = uint32_t(opkg_sim::shape_count(srcShape) / opkg_sim::dim_or(srcShape, 0, 1));
    const uint32_t strips = opkg_sim::rows_per_pass(stackBufferByteSize, lo, (SH + 7) / 8);
    tilling.set_originalBLength(B);
    tilling.set_meanVarSize(SH);
    tilling.set_tmpBufSize(stackBufferByteSize / 4);
    tilling.set_oneTmpSize(strips * 8 * B);
    tilling.set_loopRound(SH / (strips * 8));
    tilling.set_shCurLength(strips * 8 < SH ? strips * 8 : SH);
    tilling.set_bshCurLength(B * (strips * 8 < SH ? strips * 8 : SH));
    tilling.set_meanVarTailSize(SH % (strips * 8));
    tilling.set_meanVarTailPos(SH / (strips * 8) * strips * 8);
    tilling.set_firstDimValueBack(1.0f / float(B));
    return true;
}
inline void GetGroupNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, const uint32_t groupNum,
                                     optiling::GroupNormTiling& tiling) {
    const uint32_t N = opkg_sim::dim_or(srcShape, 0, 1), C = opkg_sim::dim_or(srcShape, 1, 1);
    const uint32_t HW = uint32_t(opkg_sim::shape_count(srcShape) / (uint64_t(N) * C));
    const uint32_t g = groupNum ? groupNum : 1, d = C / g;
    const uint32_t per = 32 / (typeSize ? typeSize : 4);
    const uint64_t per_group = opkg_sim::unit_tmp_bytes(opkg_sim::rules::GroupNorm, typeSize, isReuseSource,
                                                        uint64_t(d) * HW * 4);
    const uint32_t k = opkg_sim::rows_per_pass(stackBufferSize, per_group, uint64_t(N) * g);
    tiling.set_n(N);
    tiling.set_c(C);
    tiling.set_hw(HW);
    tiling.set_g(g);
    tiling.set_d(d);
    tiling.set_hwAlignSize((HW + per - 1) / per * per);
    tiling.set_dhwAlignSize((d * HW + per - 1) / per * per);
    tiling.set_inputXSize(N * C * HW);
    tiling.set_meanVarSize(N * g);
    tiling.set_tmpBufSize(stackBufferSize / 4);
    tiling.set_loopRound(N * g / k);
    tiling.set_bshCurLength(k * d * HW);
    tiling.set_bsCurLength(k);
    tiling.set_factor(1.0f / float(d * HW));
    tiling.set_smallShape(d * HW * 4 < 32);
}
inline void GetLayerNormGradNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize,
                                         const uint32_t typeSize, const bool isReuseSource,
                                         optiling::LayerNormGradTiling& tiling) {
    const uint32_t B = opkg_sim::dim_or(srcShape, 0, 1), S = opkg_sim::dim_or(srcShape, 1, 1);
    const uint32_t H = uint32_t(opkg_sim::rows_last(srcShape).last);
    const uint64_t per_row = opkg_sim::unit_tmp_bytes(opkg_sim::rules::LayerNormGrad, typeSize, isReuseSource, H * 4ull);
    const uint32_t k = opkg_sim::rows_per_pass(stackBufferSize, per_row, uint64_t(B) * S);
    tiling.set_stackBufferSize(stackBufferSize);
    tiling.set_bLength(B);
    tiling.set_sLength(S);
    tiling.set_hLength(H);
    tiling.set_originalHLength(H);
    tiling.set_oneCalSize(k * H);
    tiling.set_nohCalSize(k);
    tiling.set_loopNum(B * S / k);
    tiling.set_tailSize(B * S % k * H);
    tiling.set_nohTailSize(B * S % k);
    tiling.set_lastDimValueBack(opkg_sim::float_bits(1.0f / float(H)));
    tiling.set_lastDimValueBackMulTwo(opkg_sim::float_bits(2.0f / float(H)));
}
inline void GetLayerNormGradBetaNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize,
                                             const uint32_t typeSize, const bool isReuseSource,
                                             optiling::LayerNormGradBetaTiling& tiling) {
    const uint32_t B = opkg_sim::dim_or(srcShape, 0, 1), S = opkg_sim::dim_or(srcShape, 1, 1);
    const uint32_t H = uint32_t(opkg_sim::rows_last(srcShape).last);
    const uint64_t per_row =
        opkg_sim::unit_tmp_bytes(opkg_sim::rules::LayerNormGradBeta, typeSize, isReuseSource, H * 4ull);
    const uint32_t k = opkg_sim::rows_per_pass(stackBufferSize, per_row, uint64_t(B) * S);
    tiling.set_stackBufferSize(stackBufferSize);
    tiling.set_bLength(B);
    tiling.set_sLength(S);
    tiling.set_hLength(H);
    tiling.set_originalHLength(H);
    tiling.set_bshLength(B * S * H);
    tiling.set_bsLength(B * S);
    tiling.set_oneCalSize(k * H);
    tiling.set_numberOfTmpBuf(typeSize == 2 ? 4 : (isReuseSource ? 1 : 2));
    tiling.set_loopRound(B * S / k);
    tiling.set_inputTailSize(B * S % k * H);
    tiling.set_inputTailPos(B * S / k * k * H);
    tiling.set_bsTailSize(B * S % k);
    tiling.set_bshCurLength(k * H);
    tiling.set_bsCurLength(k);
}
// Pad: srcShape [H, W] (W a whole number of 32-byte blocks), oriSrcShape's W the valid width.
inline void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape, const uint32_t stackBufferSize,
                          const uint32_t typeSize, optiling::PadTiling& tiling) {
    const opkg_sim::RowsLast s = opkg_sim::rows_last(srcShape);
    const uint64_t ow = opkg_sim::rows_last(oriSrcShape).last;
    const uint32_t per = 32 / (typeSize ? typeSize : 4);
    tiling.set_srcHeight(uint32_t(s.rows));
    tiling.set_srcWidth(uint32_t(s.last));
    tiling.set_srcOriWidth(uint32_t(ow));
    tiling.set_blocksPerRow(uint32_t(s.last / per));
    tiling.set_widthWithoutLastBlock(uint32_t(s.last >= per ? s.last - per : 0));
    tiling.set_heightTiling(opkg_sim::rows_per_pass(stackBufferSize, (s.last * typeSize + 31) / 32 * 32, s.rows));
    tiling.set_heightFractal(uint32_t(s.rows / tiling.get_heightTiling()));
    tiling.set_heightFractalTail(uint32_t(s.rows % tiling.get_heightTiling()));
}
inline void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            optiling::UnPadTiling& tiling) {
    const opkg_sim::RowsLast s = opkg_sim::rows_last(srcShape);
    const uint32_t k = opkg_sim::rows_per_pass(stackBufferSize, (s.last * typeSize + 31) / 32 * 32, s.rows);
    tiling.set_srcHeight(uint32_t(s.rows));
    tiling.set_srcWidth(uint32_t(s.last));
    tiling.set_tmpBuffer1RowNum(k);
    tiling.set_widthTiling(uint32_t(s.last));
}
#endif

}  // namespace AscendC
#endif
