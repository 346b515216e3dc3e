// Host tiling helpers of the high-level vector APIs (Get<Api>MaxMinTmpSize,
// Get<Api>TmpBufferFactorSize), computed from the same table as the kernel-side checks
// (hl_rules.h): the minimum is what the sim's kernel accepts, the maximum what it could use for
// the whole shape. A factor pair means tmp = maxLiveNodeCnt * typeSize * count + extraBuf.
#ifndef OPKG_SIM_HL_TILING_H
#define OPKG_SIM_HL_TILING_H

#include <cstdint>
#include "graph/tensor.h"
#include "opkg_sim/adv_api/hl_rules.h"
#include "lib/activation/softmax_tilingdata.h"

#include "opkg_sim/adv_api/sort/sort_config.h"

namespace platform_ascendc { class PlatformAscendC; }

namespace opkg_sim {

inline uint64_t shape_count(const ge::Shape& s) {
    int64_t n = s.GetShapeSize();
    return n > 0 ? uint64_t(n) : 0;
}

inline void max_min(const TmpRule& r, const ge::Shape& shape, uint32_t type_size, bool reuse, uint32_t& max_value,
                    uint32_t& min_value) {
    uint64_t lo = tmp_min_bytes(r, type_size, reuse);
    uint64_t hi = tmp_max_bytes(r, type_size, reuse, shape_count(shape));
    min_value = uint32_t(lo);
    max_value = uint32_t(hi < lo ? lo : hi);
}

inline void factor(const TmpRule& r, uint32_t type_size, uint32_t& max_live, uint32_t& extra) {
    uint32_t live = tmp_live(r, type_size, false);
    max_live = type_size ? live * 4 / type_size : 0;
    extra = r.extra;
}

}  // namespace opkg_sim

namespace AscendC {

#define OPKG_HL_TILING(NAME, RULE)                                                                            \
    inline void Get##NAME##MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,                   \
                                         const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {   \
        opkg_sim::max_min(opkg_sim::rules::RULE, srcShape, typeSize, isReuseSource, maxValue, minValue);       \
    }                                                                                                         \
    inline void Get##NAME##TmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCnt,              \
                                               uint32_t& extraBuf) {                                          \
        opkg_sim::factor(opkg_sim::rules::RULE, typeSize, maxLiveNodeCnt, extraBuf);                          \
    }

OPKG_HL_TILING(Sin, Sin)
OPKG_HL_TILING(Cos, Cos)
OPKG_HL_TILING(Tan, Tan)
OPKG_HL_TILING(Asin, Asin)
OPKG_HL_TILING(Acos, Acos)
OPKG_HL_TILING(Atan, Atan)
OPKG_HL_TILING(Sinh, Sinh)
OPKG_HL_TILING(Cosh, Cosh)
OPKG_HL_TILING(Tanh, Tanh)
OPKG_HL_TILING(Asinh, Asinh)
OPKG_HL_TILING(Acosh, Acosh)
OPKG_HL_TILING(Atanh, Atanh)
OPKG_HL_TILING(Erf, Erf)
OPKG_HL_TILING(Erfc, Erfc)
OPKG_HL_TILING(Digamma, Digamma)
OPKG_HL_TILING(Lgamma, Lgamma)
OPKG_HL_TILING(Floor, Floor)
OPKG_HL_TILING(Ceil, Ceil)
OPKG_HL_TILING(Trunc, Trunc)
OPKG_HL_TILING(Frac, Frac)
OPKG_HL_TILING(Sign, Sign)
OPKG_HL_TILING(Log, Log)
OPKG_HL_TILING(Log2, Log2)
OPKG_HL_TILING(Log10, Log10)
OPKG_HL_TILING(Clamp, Clamp)
OPKG_HL_TILING(Fmod, Fmod)
OPKG_HL_TILING(Axpy, Axpy)
OPKG_HL_TILING(Xor, Xor)
#undef OPKG_HL_TILING

inline void GetSigmoidMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, bool isReuseSource,
                                    uint32_t& maxValue, uint32_t& minValue) {
    opkg_sim::max_min(opkg_sim::rules::Sigmoid, srcShape, typeSize, isReuseSource, maxValue, minValue);
}

inline bool GetExpMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t& maxValue, uint32_t& minValue) {
    opkg_sim::max_min(opkg_sim::rules::Exp, srcShape, typeSize, isReuseSource, maxValue, minValue);
    return true;
}
inline void GetExpTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    opkg_sim::factor(opkg_sim::rules::Exp, typeSize, maxLiveNodeCount, extraBuffer);
}

using TensorShape = ge::Shape;
using TensorDataType = ge::DataType;

// The Ascend 950's Sort with a SortConfig (hl_sort.h): the devkit's GetSortMaxMinTmpSize page
// gives no formula, its implementation one size (max = min): merge sort 8 bytes an element; radix
// sort 7 bytes an element (count rounded up to 32) plus 512 bucket bytes, plus room for copies of
// the values and indices unless the source is reused.
inline void GetSortMaxMinTmpSize(const TensorShape& srcShape, TensorDataType valueType, TensorDataType indexType,
                                 bool isReuseSource, const SortConfig& config, uint32_t& maxValue,
                                 uint32_t& minValue) {
    uint64_t count = 1;
    for (size_t i = 0; i < srcShape.GetDimNum(); ++i) count *= uint64_t(srcShape.GetDim(i));
    if (config.type == SortType::MERGE_SORT) {
        maxValue = minValue = uint32_t(8 * count);
        return;
    }
    auto width = [](TensorDataType t) -> uint64_t {
        switch (t) {
            case ge::DT_INT8: case ge::DT_UINT8: return 1;
            case ge::DT_INT16: case ge::DT_UINT16: case ge::DT_FLOAT16: case ge::DT_BF16: return 2;
            case ge::DT_INT64: case ge::DT_UINT64: return 8;
            default: return 4;
        }
    };
    count = (count + 31) / 32 * 32;
    const uint64_t value = isReuseSource ? 0 : width(valueType), index = isReuseSource ? 0 : width(indexType);
    uint64_t bytes = count * 7 + 512;
    if (width(valueType) != 1) {
        if (!config.hasSrcIndex && !config.hasDstIndex) bytes += count * value;
        else if (!config.hasSrcIndex) bytes += count * (4 + value);
        else bytes += count * (value + index);
    } else if (!config.hasSrcIndex && config.hasDstIndex) {
        bytes -= 2 * count;
    }
    maxValue = minValue = uint32_t(bytes);
}

// Round's kernel needs more on 310P; the host answers for the SoC that needs most.
inline void GetRoundMaxMinTmpSize(const platform_ascendc::PlatformAscendC&, const ge::Shape& srcShape,
                                  const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                                  uint32_t& minValue) {
    opkg_sim::max_min(opkg_sim::rules::Round, srcShape, typeSize, isReuseSource, maxValue, minValue);
}
inline void GetRoundTmpBufferFactorSize(const platform_ascendc::PlatformAscendC&, const uint32_t typeSize,
                                        uint32_t& maxLiveNodeCnt, uint32_t& extraBuf) {
    opkg_sim::factor(opkg_sim::rules::Round, typeSize, maxLiveNodeCnt, extraBuf);
}

// Power: a shape of one element is the scalar operand; the 310P figures (the larger) are given.
inline void GetPowerMaxMinTmpSize(const ge::Shape& srcShape1, const ge::Shape& srcShape2, const bool typeIsInt,
                                  const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                                  uint32_t& minValue) {
    const bool scalar = opkg_sim::shape_count(srcShape1) == 1 || opkg_sim::shape_count(srcShape2) == 1;
    const ge::Shape& big = opkg_sim::shape_count(srcShape1) >= opkg_sim::shape_count(srcShape2) ? srcShape1 : srcShape2;
    opkg_sim::max_min(opkg_sim::rules::power(scalar, typeIsInt, true), big, typeSize, isReuseSource, maxValue,
                      minValue);
}
inline void GetPowerTmpBufferFactorSize(const bool baseIsTensor, const bool expIsTensor, const bool typeIsInt,
                                        const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    opkg_sim::factor(opkg_sim::rules::power(!(baseIsTensor && expIsTensor), typeIsInt, true), typeSize,
                     maxLiveNodeCount, extraBuffer);
}

// Activations.
inline void GetGeluMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                 uint32_t& minValue) {
    opkg_sim::max_min(opkg_sim::rules::Gelu, srcShape, typeSize, false, maxValue, minValue);
}
inline uint32_t GetGeluMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
    uint32_t hi = 0, lo = 0;
    GetGeluMaxMinTmpSize(srcShape, typeSize, hi, lo);
    return hi;
}
inline uint32_t GetGeluMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
    uint32_t hi = 0, lo = 0;
    GetGeluMaxMinTmpSize(srcShape, typeSize, hi, lo);
    return lo;
}
inline void GetGeGLUMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                  uint32_t& maxValue, uint32_t& minValue) {
    opkg_sim::max_min(opkg_sim::rules::GeGLU, srcShape, typeSize, isReuseSource, maxValue, minValue);
}
inline void GetGeGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCnt, uint32_t& extraBuf) {
    opkg_sim::factor(opkg_sim::rules::GeGLU, typeSize, maxLiveNodeCnt, extraBuf);
}
inline void GetReGluMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                  uint32_t& maxValue, uint32_t& minValue) {
    opkg_sim::max_min(opkg_sim::rules::ReGlu, srcShape, typeSize, isReuseSource, maxValue, minValue);
}
inline void GetSwiGLUMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                   uint32_t& minValue, const bool isReuseSource) {
    opkg_sim::max_min(opkg_sim::rules::SwiGLU, srcShape, typeSize, isReuseSource, maxValue, minValue);
}
inline void GetSwiGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    opkg_sim::factor(opkg_sim::rules::SwiGLU, typeSize, maxLiveNodeCount, extraBuffer);
}
// Silu and Swish need no temporary space.
inline void GetSiluTmpSize(const ge::Shape&, const uint32_t, const bool, uint32_t& max, uint32_t& min) {
    max = 0;
    min = 0;
}
inline void GetSwishTmpSize(const ge::Shape&, const uint32_t, const bool, uint32_t& max, uint32_t& min) {
    max = 0;
    min = 0;
}

// CumSum: the sim needs no temporary space (CANN's figure is not public).
inline void GetCumSumMaxMinTmpSize(const ge::Shape&, const uint32_t, const bool, const bool, uint32_t& maxValue,
                                  uint32_t& minValue) {
    maxValue = 0;
    minValue = 0;
}

// ArithProgression needs no temporary space.
inline void GetArithProgressionMaxMinTmpSize(uint32_t& maxValue, uint32_t& minValue) {
    maxValue = 0;
    minValue = 0;
}

// Reduce and select.
inline void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize, const bool isReuseSource, uint32_t& maxSize,
                                uint32_t& minSize) {
    (void)isReuseSource;
    minSize = maxSize = uint32_t(opkg_sim::sum_tmp_bytes(n, typeSize));
}
inline void GetMeanMaxMinTmpSize(const uint32_t n, const uint32_t srcTypeSize, const uint32_t accTypeSize,
                                 const bool isReuseSource, uint32_t& maxSize, uint32_t& minSize) {
    (void)isReuseSource;
    const uint32_t inner = srcTypeSize ? (n * srcTypeSize + 31) / 32 * 32 / srcTypeSize : n;
    minSize = maxSize = uint32_t(opkg_sim::mean_tmp_bytes(n, inner, srcTypeSize, accTypeSize));
}
inline void GetMeanTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    maxLiveNodeCount = typeSize == 2 ? 2 : 0;   // half input kept in float
    extraBuffer = 32;
}
inline uint32_t GetSelectWithBytesMaskMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape,
                                                 const uint32_t srcTypeSize, const ge::Shape& maskShape,
                                                 const uint32_t maskTypeSize, const bool isReuseMask) {
    (void)srcTypeSize;
    const ge::Shape& src = src0Shape.GetShapeSize() >= src1Shape.GetShapeSize() ? src0Shape : src1Shape;
    const size_t dims = src.GetDimNum();
    const bool compact = dims && maskShape.GetDimNum() && src.GetDim(dims - 1) != maskShape.GetDim(maskShape.GetDimNum() - 1);
    return uint32_t(opkg_sim::select_bytes_tmp(opkg_sim::shape_count(src), maskTypeSize, isReuseMask, compact));
}
inline uint32_t GetSelectWithBytesMaskMaxTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape,
                                                 const uint32_t srcTypeSize, const ge::Shape& maskShape,
                                                 const uint32_t maskTypeSize, const bool isReuseMask) {
    return GetSelectWithBytesMaskMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
}
inline void GetSelectWithBytesMaskMaxMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape,
                                                const uint32_t srcTypeSize, const ge::Shape& maskShape,
                                                const uint32_t maskTypeSize, const bool isReuseMask,
                                                uint32_t& maxValue, uint32_t& minValue) {
    minValue = maxValue = GetSelectWithBytesMaskMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize,
                                                           isReuseMask);
}

// SoftMax: the tiling the sim's SoftMax reads (srcM, srcK, srcSize and the per-row max/sum
// block shapes); the split fields describe one pass over all rows.
inline uint32_t GetSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
    (void)isReuseSource;
    const size_t dims = srcShape.GetDimNum();
    const uint32_t k = dims ? uint32_t(srcShape.GetDim(dims - 1)) : 0;
    return uint32_t(opkg_sim::softmax_tmp_bytes(k, dataTypeSize));
}
inline uint32_t GetSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
    const size_t dims = srcShape.GetDimNum();
    const uint64_t k = dims ? uint64_t(srcShape.GetDim(dims - 1)) : 0;
    const uint64_t m = k ? opkg_sim::shape_count(srcShape) / k : 0;
    const uint64_t lo = GetSoftMaxMinTmpSize(srcShape, dataTypeSize, isReuseSource);
    return uint32_t(lo * (m ? m : 1));
}
// SoftmaxFlashV3 (half data) needs the same scratch per row as SoftMax in the sim.
inline void GetSoftMaxFlashV3MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                           const uint32_t dataTypeSize2, uint32_t& maxValue, uint32_t& minValue,
                                           const bool isUpdate, const bool isBasicBlock = false) {
    (void)dataTypeSize2;
    (void)isUpdate;
    (void)isBasicBlock;
    minValue = GetSoftMaxMinTmpSize(srcShape, dataTypeSize1, false);
    maxValue = GetSoftMaxMaxTmpSize(srcShape, dataTypeSize1, false);
}
// SoftmaxGrad (front or not) needs the same scratch per row as SoftMax in the sim.
inline uint32_t GetSoftMaxGradMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool isReuseSource) {
    (void)isFront;
    return GetSoftMaxMinTmpSize(srcShape, dataTypeSize, isReuseSource);
}
inline uint32_t GetSoftMaxGradMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool isReuseSource) {
    (void)isFront;
    return GetSoftMaxMaxTmpSize(srcShape, dataTypeSize, isReuseSource);
}
#ifndef OPKG_SIM_KERNEL
inline void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                              optiling::SoftMaxTiling& softmaxTiling) {
    (void)localWorkSpaceSize;
    const size_t dims = srcShape.GetDimNum();
    const uint32_t k = dims ? uint32_t(srcShape.GetDim(dims - 1)) : 0;
    const uint32_t m = k ? uint32_t(opkg_sim::shape_count(srcShape) / k) : 0;
    const uint32_t per_block = dataTypeSize ? 32 / dataTypeSize : 8;
    softmaxTiling.set_srcM(m);
    softmaxTiling.set_srcK(k);
    softmaxTiling.set_srcSize(m * k);
    softmaxTiling.set_outMaxM(m);
    softmaxTiling.set_outMaxK(per_block);
    softmaxTiling.set_outMaxSize(m * per_block);
    softmaxTiling.set_splitM(m);
    softmaxTiling.set_splitK(k);
    softmaxTiling.set_splitSize(m * k);
    softmaxTiling.set_reduceM(m);
    softmaxTiling.set_reduceK(per_block);
    softmaxTiling.set_reduceSize(m * per_block);
    softmaxTiling.set_rangeM(1);
    softmaxTiling.set_tailM(0);
    softmaxTiling.set_tailSplitSize(0);
    softmaxTiling.set_tailReduceSize(0);
}
// SoftmaxFlashV2 reads the same fields (the sim computes each row whole, so isUpdate, isBasicBlock
// and isFlashOutputBrc change nothing in them).
inline void SoftMaxFlashV2TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     optiling::SoftMaxTiling& softmaxFlashTiling, const bool isUpdate,
                                     const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    (void)dataTypeSize2;
    (void)isUpdate;
    (void)isBasicBlock;
    (void)isFlashOutputBrc;
    SoftMaxTilingFunc(srcShape, dataTypeSize1, localWorkSpaceSize, softmaxFlashTiling);
}
// SoftmaxFlashV3 reads the same fields (the sim computes each row whole).
inline void SoftMaxFlashV3TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     optiling::SoftMaxTiling& softmaxFlashV3Tiling, const bool isUpdate,
                                     const bool isBasicBlock = false) {
    (void)dataTypeSize2;
    (void)isUpdate;
    (void)isBasicBlock;
    SoftMaxTilingFunc(srcShape, dataTypeSize1, localWorkSpaceSize, softmaxFlashV3Tiling);
}
// SoftmaxGrad reads the same fields (front or not).
inline void SoftMaxGradTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                  const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxGradTiling,
                                  const bool isFront = false) {
    (void)isFront;
    SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, softmaxGradTiling);
}
#endif

}  // namespace AscendC

// The normalization, quantization and pad libraries' helpers.
#include "opkg_sim/host/hl_tiling_lib.h"
#endif
