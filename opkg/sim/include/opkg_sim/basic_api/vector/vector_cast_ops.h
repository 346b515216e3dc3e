// Basic vector APIs around the cast unit and the scalar registers: AddReluCast / SubReluCast /
// MulCast (compute in the source type, then convert with saturation), AddDeqRelu with the
// DEQSCALE register (SetDeqScale), the compare-mask register (Compare without dst, GetCmpMask,
// SetCmpMask), GetAccVal (the count-form ReduceSum's result register), the block gather Gatherb,
// Scatter, and DumpAccChkPoint. docs/api.md has the model of each.
#ifndef OPKG_SIM_VECTOR_CAST_OPS_H
#define OPKG_SIM_VECTOR_CAST_OPS_H

#include <cmath>
#include <limits>
#include "opkg_sim/basic_api/vector/vector.h"
#include "opkg_sim/basic_api/vector/vector_more.h"
#include "opkg_sim/basic_api/core/kmisc.h"

namespace AscendC {

constexpr uint8_t VDEQ_TENSOR_SIZE = 16;

struct VdeqInfo {
    VdeqInfo() {}
    VdeqInfo(const float vdeqScaleIn[VDEQ_TENSOR_SIZE], const int16_t vdeqOffsetIn[VDEQ_TENSOR_SIZE],
             const bool vdeqSignModeIn[VDEQ_TENSOR_SIZE]) {
        for (int32_t i = 0; i < VDEQ_TENSOR_SIZE; ++i) {
            vdeqScale[i] = vdeqScaleIn[i];
            vdeqOffset[i] = vdeqOffsetIn[i];
            vdeqSignMode[i] = vdeqSignModeIn[i];
        }
    }
    float vdeqScale[VDEQ_TENSOR_SIZE] = {0};
    int16_t vdeqOffset[VDEQ_TENSOR_SIZE] = {0};
    bool vdeqSignMode[VDEQ_TENSOR_SIZE] = {0};
};

struct GatherRepeatParams {
    GatherRepeatParams() {}
    GatherRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t dstRepStrideIn)
        : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn) {}
    uint32_t blockNumber = 8;
    uint16_t dstRepStride = 8;
    uint8_t dstBlkStride = 1;
    uint8_t src0BlkStride = 1;
    uint8_t src1BlkStride = 1;
    uint8_t src0RepStride = 8;
    uint8_t src1RepStride = 8;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

}  // namespace AscendC

namespace opkg_sim {

// Saturating conversion of an exact value to D (integers: round to nearest even, then clamp).
template <class D> inline D saturate_to(double v) {
    if constexpr (std::is_integral<D>::value) {
        if (std::isnan(v)) return D(0);
        v = std::nearbyint(v);
        if (v <= double(std::numeric_limits<D>::lowest())) return std::numeric_limits<D>::lowest();
        if (v >= double(std::numeric_limits<D>::max())) return std::numeric_limits<D>::max();
        return static_cast<D>(v);
    } else {
        return static_cast<D>(static_cast<float>(v));
    }
}

// The value the source-type computation produces, rounded to S (integers: saturated to S).
template <class S> inline double in_source_type(double v) {
    if constexpr (std::is_integral<S>::value) return double(saturate_to<S>(v));
    else return double(static_cast<float>(static_cast<S>(static_cast<float>(v))));
}

template <class D, class S, class F>
inline void cast_binary_count(const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<S>& a,
                              const AscendC::LocalTensor<S>& b, int64_t count, F f, const char* op, SrcLoc loc) {
    check_vec(dst, count, op, "dst", loc);
    check_vec(a, count, op, "src0", loc);
    check_vec(b, count, op, "src1", loc);
    check_read(a.ptr_, uint64_t(count) * sizeof(S), op, "src0", loc);
    check_read(b.ptr_, uint64_t(count) * sizeof(S), op, "src1", loc);
    count_vec_of<S>(op, count);
    for (int64_t i = 0; i < count; ++i) {
        dst.ptr_[i] = f(double(static_cast<calc_t<S>>(a.ptr_[i])), double(static_cast<calc_t<S>>(b.ptr_[i])));
    }
    mark_written(dst.ptr_, uint64_t(count) * sizeof(D));
}

// Level 0: lanes of the source type (the wider one), each operand addressed in its own type.
template <class D, class S, class F>
inline void cast_binary_level0(const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<S>& a,
                               const AscendC::LocalTensor<S>& b, const Mask& m, uint32_t repeat,
                               const AscendC::BinaryRepeatParams& p, F f, const char* op, SrcLoc loc) {
    repeat = m.reps(repeat);
    check_level0(dst, m, repeat, p.dstBlkStride, p.dstRepStride, op, "dst", loc);
    check_level0(a, m, repeat, p.src0BlkStride, p.src0RepStride, op, "src0", loc);
    check_level0(b, m, repeat, p.src1BlkStride, p.src1RepStride, op, "src1", loc);
    count_level0<S>(op, m, repeat);
    const uint32_t lanes = 256 / sizeof(S);
    for (uint32_t r = 0; r < repeat; ++r) {
        for (uint32_t j = 0; j < lanes; ++j) {
            if (!m.test(r, j)) continue;
            const uint8_t* pa = reinterpret_cast<const uint8_t*>(a.ptr_) + elem_offset<S>(r, j, p.src0BlkStride, p.src0RepStride);
            const uint8_t* pb = reinterpret_cast<const uint8_t*>(b.ptr_) + elem_offset<S>(r, j, p.src1BlkStride, p.src1RepStride);
            check_read(pa, sizeof(S), op, "src0", loc);
            check_read(pb, sizeof(S), op, "src1", loc);
            S va, vb;
            std::memcpy(&va, pa, sizeof(S));
            std::memcpy(&vb, pb, sizeof(S));
            D out = f(double(static_cast<calc_t<S>>(va)), double(static_cast<calc_t<S>>(vb)));
            uint8_t* pd = reinterpret_cast<uint8_t*>(dst.ptr_) + elem_offset<D>(r, j, p.dstBlkStride, p.dstRepStride);
            std::memcpy(pd, &out, sizeof(D));
            mark_written(pd, sizeof(D));
        }
    }
}

// One repeat of Compare into 128 bits (lanes the mask leaves out 0): the CMPMASK form. Register
// bits carry no definedness: an undefined lane is reported here, as a value scalar code uses.
template <class T>
inline void compare_to_bits(const AscendC::LocalTensor<T>& a, const AscendC::LocalTensor<T>& b, AscendC::CMPMODE mode,
                            const Mask& m, const AscendC::BinaryRepeatParams& p, uint8_t bits[16], SrcLoc loc) {
    const char* op = "Compare";
    check_level0(a, m, 1, p.src0BlkStride, p.src0RepStride, op, "src0", loc);
    check_level0(b, m, 1, p.src1BlkStride, p.src1RepStride, op, "src1", loc);
    count_level0<T>(op, m, 1);
    std::memset(bits, 0, 16);
    const uint32_t lanes = 256 / sizeof(T);
    for (uint32_t j = 0; j < lanes; ++j) {
        if (!m.test(0, j)) continue;
        const uint8_t* pa = reinterpret_cast<const uint8_t*>(a.ptr_) + elem_offset<T>(0, j, p.src0BlkStride, p.src0RepStride);
        const uint8_t* pb = reinterpret_cast<const uint8_t*>(b.ptr_) + elem_offset<T>(0, j, p.src1BlkStride, p.src1RepStride);
        check_use(pa, sizeof(T), op, "src0", loc, Pipe::V);
        check_use(pb, sizeof(T), op, "src1", loc, Pipe::V);
        T x, y;
        std::memcpy(&x, pa, sizeof(T));
        std::memcpy(&y, pb, sizeof(T));
        if (compare(static_cast<calc_t<T>>(x), static_cast<calc_t<T>>(y), mode)) bits[j / 8] |= uint8_t(1u << (j % 8));
    }
}

template <class D, class S> constexpr bool relu_cast_pair() {
    return (std::is_same<S, half>::value && std::is_same<D, int8_t>::value) ||
           (std::is_same<S, float>::value && std::is_same<D, half>::value) ||
           (std::is_same<S, int16_t>::value && std::is_same<D, int8_t>::value);
}

// (a op b) in S, relu, converted to D (saturating); NaN stays NaN for a float D.
template <class D, class S, bool sub> inline auto relu_cast() {
    static_assert(relu_cast_pair<D, S>(), "AddReluCast/SubReluCast take half->int8_t, float->half or int16_t->int8_t");
    return [](double x, double y) {
        double v = in_source_type<S>(sub ? x - y : x + y);
        if (v < 0) v = 0;
        return saturate_to<D>(v);
    };
}

template <class D, class S> inline auto mul_cast() {
    static_assert(std::is_same<S, half>::value && (std::is_same<D, int8_t>::value || std::is_same<D, uint8_t>::value),
                  "MulCast takes half sources and an int8_t or uint8_t dst");
    return [](double x, double y) { return saturate_to<D>(in_source_type<S>(x * y)); };
}

// AddDeqRelu: int32 sum (wrapping as the integer adder does), times DEQSCALE, relu, to half.
inline auto add_deq_relu(const char* op, SrcLoc loc) {
    const BlockState& r = block();
    if (!r.deq_set) fail(loc, format("%s: DEQSCALE was never set in this block: call SetDeqScale(half) first", op));
    const double scale = r.deq_scale;
    return [scale](double x, double y) {
        const int32_t s = int32_t(uint32_t(int32_t(x)) + uint32_t(int32_t(y)));
        double v = double(s) * scale;
        if (v < 0) v = 0;
        return static_cast<half>(static_cast<float>(v));
    };
}

}  // namespace opkg_sim

namespace AscendC {

#define OPKG_SIM_CAST_BINARY(NAME, TPL, D, S, FN)                                                              \
    TPL inline void NAME(const LocalTensor<D>& dstLocal, const LocalTensor<S>& src0Local,                     \
                         const LocalTensor<S>& src1Local, uint64_t mask, const uint8_t repeatTimes,           \
                         const BinaryRepeatParams& repeatParams, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) { \
        opkg_sim::cast_binary_level0(dstLocal, src0Local, src1Local,                                          \
                                     opkg_sim::continuous_mask<S, isSetMask>(mask, #NAME, loc), repeatTimes,  \
                                     repeatParams, FN, #NAME, loc);                                           \
    }                                                                                                         \
    TPL inline void NAME(const LocalTensor<D>& dstLocal, const LocalTensor<S>& src0Local,                     \
                         const LocalTensor<S>& src1Local, uint64_t mask[], const uint8_t repeatTimes,         \
                         const BinaryRepeatParams& repeatParams, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) { \
        opkg_sim::cast_binary_level0(dstLocal, src0Local, src1Local,                                          \
                                     opkg_sim::bit_mask<S, isSetMask>(mask, #NAME, loc), repeatTimes,         \
                                     repeatParams, FN, #NAME, loc);                                           \
    }

#define OPKG_SIM_COMMA ,
OPKG_SIM_CAST_BINARY(AddReluCast, template <typename T1 OPKG_SIM_COMMA typename T2 OPKG_SIM_COMMA bool isSetMask = true>,
                     T1, T2, (opkg_sim::relu_cast<T1, T2, false>()))
OPKG_SIM_CAST_BINARY(SubReluCast, template <typename T1 OPKG_SIM_COMMA typename T2 OPKG_SIM_COMMA bool isSetMask = true>,
                     T1, T2, (opkg_sim::relu_cast<T1, T2, true>()))
#undef OPKG_SIM_COMMA

template <typename T1, typename T2>
inline void AddReluCast(const LocalTensor<T1>& dstLocal, const LocalTensor<T2>& src0Local,
                        const LocalTensor<T2>& src1Local, const uint32_t calCount,
                        opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::cast_binary_count(dstLocal, src0Local, src1Local, calCount, opkg_sim::relu_cast<T1, T2, false>(),
                                "AddReluCast", loc);
}
template <typename T1, typename T2>
inline void SubReluCast(const LocalTensor<T1>& dstLocal, const LocalTensor<T2>& src0Local,
                        const LocalTensor<T2>& src1Local, const uint32_t calCount,
                        opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::cast_binary_count(dstLocal, src0Local, src1Local, calCount, opkg_sim::relu_cast<T1, T2, true>(),
                                "SubReluCast", loc);
}

// MulCast has no isSetMask parameter in CANN: it always sets the mask.
template <typename T, typename U>
inline void MulCast(const LocalTensor<T>& dstLocal, const LocalTensor<U>& src0Local, const LocalTensor<U>& src1Local,
                    uint64_t mask, const uint8_t repeatTimes, const BinaryRepeatParams& repeatParams,
                    opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::cast_binary_level0(dstLocal, src0Local, src1Local, opkg_sim::continuous_mask<U, true>(mask, "MulCast", loc),
                                 repeatTimes, repeatParams, opkg_sim::mul_cast<T, U>(), "MulCast", loc);
}
template <typename T, typename U>
inline void MulCast(const LocalTensor<T>& dstLocal, const LocalTensor<U>& src0Local, const LocalTensor<U>& src1Local,
                    uint64_t mask[], const uint8_t repeatTimes, const BinaryRepeatParams& repeatParams,
                    opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::cast_binary_level0(dstLocal, src0Local, src1Local, opkg_sim::bit_mask<U, true>(mask, "MulCast", loc),
                                 repeatTimes, repeatParams, opkg_sim::mul_cast<T, U>(), "MulCast", loc);
}
template <typename T, typename U>
inline void MulCast(const LocalTensor<T>& dstLocal, const LocalTensor<U>& src0Local, const LocalTensor<U>& src1Local,
                    uint32_t calCount, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::cast_binary_count(dstLocal, src0Local, src1Local, calCount, opkg_sim::mul_cast<T, U>(), "MulCast", loc);
}

// ---- DEQSCALE ----
inline void SetDeqScale(half scale) {
    opkg_sim::block().deq_scale = double(static_cast<float>(scale));
    opkg_sim::block().deq_set = true;
}
// The CastDeq configuration (scale, s9 offset, signMode): the sim has no CastDeq, so nothing
// reads it; accepted so that sources setting it compile.
inline void SetDeqScale(float scale, int16_t offset, bool signMode) {
    (void)scale;
    (void)offset;
    (void)signMode;
}
// The vector form: 16 (scale, offset, signMode) sets packed into a 128-byte uint64_t tensor.
template <typename T>
inline void SetDeqScale(const LocalTensor<T>& vdeq, const VdeqInfo& vdeqInfo,
                        opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    static_assert(std::is_same<T, uint64_t>::value, "SetDeqScale's vdeq tensor is uint64_t");
    opkg_sim::check_ub(vdeq, 128, "SetDeqScale", "vdeq", loc);
    for (int i = 0; i < VDEQ_TENSOR_SIZE; ++i) {
        uint32_t bits;
        std::memcpy(&bits, &vdeqInfo.vdeqScale[i], 4);
        vdeq.ptr_[i] = uint64_t(bits) | (uint64_t(uint16_t(vdeqInfo.vdeqOffset[i]) & 0x1FF) << 37) |
                       (uint64_t(vdeqInfo.vdeqSignMode[i]) << 46);
    }
    opkg_sim::mark_written(vdeq.ptr_, 128, opkg_sim::Pipe::S);   // scalar stores, as CANN writes them
}

// AddDeqRelu: dst (half) = relu((src0 + src1) * DEQSCALE), int32 sources.
template <typename T, typename U, bool isSetMask = true>
inline void AddDeqRelu(const LocalTensor<T>& dstLocal, const LocalTensor<U>& src0Local, const LocalTensor<U>& src1Local,
                       uint64_t mask, const uint8_t repeatTimes, const BinaryRepeatParams& repeatParams,
                       opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    static_assert(std::is_same<T, half>::value && std::is_same<U, int32_t>::value, "AddDeqRelu: half dst, int32_t sources");
    opkg_sim::cast_binary_level0(dstLocal, src0Local, src1Local,
                                 opkg_sim::continuous_mask<U, isSetMask>(mask, "AddDeqRelu", loc), repeatTimes,
                                 repeatParams, opkg_sim::add_deq_relu("AddDeqRelu", loc), "AddDeqRelu", loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void AddDeqRelu(const LocalTensor<T>& dstLocal, const LocalTensor<U>& src0Local, const LocalTensor<U>& src1Local,
                       uint64_t mask[], const uint8_t repeatTimes, const BinaryRepeatParams& repeatParams,
                       opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    static_assert(std::is_same<T, half>::value && std::is_same<U, int32_t>::value, "AddDeqRelu: half dst, int32_t sources");
    opkg_sim::cast_binary_level0(dstLocal, src0Local, src1Local,
                                 opkg_sim::bit_mask<U, isSetMask>(mask, "AddDeqRelu", loc), repeatTimes, repeatParams,
                                 opkg_sim::add_deq_relu("AddDeqRelu", loc), "AddDeqRelu", loc);
}
template <typename T, typename U>
inline void AddDeqRelu(const LocalTensor<T>& dstLocal, const LocalTensor<U>& src0Local, const LocalTensor<U>& src1Local,
                       const int32_t& calCount, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    static_assert(std::is_same<T, half>::value && std::is_same<U, int32_t>::value, "AddDeqRelu: half dst, int32_t sources");
    opkg_sim::cast_binary_count(dstLocal, src0Local, src1Local, calCount, opkg_sim::add_deq_relu("AddDeqRelu", loc),
                                "AddDeqRelu", loc);
}

// ---- CMPMASK ----
// Compare without dst: one repeat's result bits (lanes the mask leaves out 0) into CMPMASK.
template <typename T, bool isSetMask = true>
inline void Compare(const LocalTensor<T>& src0Local, const LocalTensor<T>& src1Local, CMPMODE cmpMode,
                    const uint64_t mask, const BinaryRepeatParams& repeatParams,
                    opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    uint8_t bits[16];
    opkg_sim::compare_to_bits(src0Local, src1Local, cmpMode, opkg_sim::continuous_mask<T, isSetMask>(mask, "Compare", loc),
                              repeatParams, bits, loc);
    std::memcpy(opkg_sim::block().cmp_mask, bits, 16);
    opkg_sim::block().cmp_set = true;
}
template <typename T, bool isSetMask = true>
inline void Compare(const LocalTensor<T>& src0Local, const LocalTensor<T>& src1Local, CMPMODE cmpMode,
                    const uint64_t mask[], const BinaryRepeatParams& repeatParams,
                    opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    uint8_t bits[16];
    opkg_sim::compare_to_bits(src0Local, src1Local, cmpMode, opkg_sim::bit_mask<T, isSetMask>(mask, "Compare", loc),
                              repeatParams, bits, loc);
    std::memcpy(opkg_sim::block().cmp_mask, bits, 16);
    opkg_sim::block().cmp_set = true;
}

// GetCmpMask: the 128-bit CMPMASK into dst's first 16 bytes.
template <typename T>
inline void GetCmpMask(const LocalTensor<T>& dst, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::check_ub(dst, 16, "GetCmpMask", "dst", loc);
    if (!opkg_sim::block().cmp_set) {
        opkg_sim::fail(loc, "GetCmpMask: CMPMASK holds nothing in this block yet (no Compare without dst, no SetCmpMask)");
    }
    std::memcpy(dst.ptr_, opkg_sim::block().cmp_mask, 16);
    opkg_sim::mark_written(dst.ptr_, 16);
}

// SetCmpMask: CMPMASK from src's first 16 bytes.
template <typename T>
inline void SetCmpMask(const LocalTensor<T>& src, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::check_ub(src, 16, "SetCmpMask", "src", loc);
    opkg_sim::check_use(src.ptr_, 16, "SetCmpMask", "src", loc, opkg_sim::Pipe::V);
    std::memcpy(opkg_sim::block().cmp_mask, src.ptr_, 16);
    opkg_sim::block().cmp_set = true;
}

// ---- GetAccVal ----
// The result register of the last count-form ReduceSum (A2/A3): the raw 64 bits, or the value as T.
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 220
inline int64_t GetAccVal(opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    if (!opkg_sim::block().acc_set) {
        opkg_sim::fail(loc, "GetAccVal: no count-form ReduceSum ran in this block yet: the register holds nothing");
    }
    return int64_t(opkg_sim::block().acc_val);
}
template <typename T> inline T GetAccVal(opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value, "GetAccVal<T>: half or float");
    const int64_t bits = GetAccVal(loc);
    T v;
    std::memcpy(&v, &bits, sizeof(T));
    return v;
}
#endif

// ---- Gatherb ----
// Per repeat, 8 offsets (bytes from src0, 32-byte aligned) pick 32-byte blocks of src0 into dst's
// 8 blocks (dstBlkStride / dstRepStride in blocks).
template <typename T>
inline void Gatherb(const LocalTensor<T>& dstLocal, const LocalTensor<T>& src0Local,
                    const LocalTensor<uint32_t>& offsetLocal, const uint8_t repeatTimes,
                    const GatherRepeatParams& repeatParams, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Gatherb takes 16- or 32-bit elements (uint16_t, uint32_t)");
    const char* op = "Gatherb";
    const uint64_t blocks = uint64_t(repeatTimes) * 8;
    opkg_sim::check_ub(offsetLocal, blocks * 4, op, "offsetLocal", loc);
    opkg_sim::check_ub(src0Local, 0, op, "src0", loc);
    const uint64_t dst_end = repeatTimes ? (uint64_t(repeatTimes - 1) * repeatParams.dstRepStride +
                                            7ull * repeatParams.dstBlkStride) * 32 + 32 : 0;
    opkg_sim::check_ub(dstLocal, dst_end, op, "dst", loc);
    opkg_sim::check_use(offsetLocal.ptr_, blocks * 4, op, "offsetLocal", loc, opkg_sim::Pipe::V);
    opkg_sim::count_vec(op, blocks * 32 / sizeof(T), blocks * 32, repeatTimes);
    const uint64_t src_bytes = uint64_t(src0Local.size_) * sizeof(T);
    for (uint64_t k = 0; k < blocks; ++k) {
        const uint32_t off = offsetLocal.ptr_[k];
        if (off % 32) opkg_sim::fail(loc, opkg_sim::format("%s: offset %llu is %u, not a multiple of 32 bytes", op,
                                                           (unsigned long long)k, off));
        if (uint64_t(off) + 32 > src_bytes) {
            opkg_sim::fail(loc, opkg_sim::format("%s: offset %llu (%u bytes) reads past src0's %llu bytes", op,
                                                 (unsigned long long)k, off, (unsigned long long)src_bytes));
        }
        const uint8_t* s = reinterpret_cast<const uint8_t*>(src0Local.ptr_) + off;
        uint8_t* d = reinterpret_cast<uint8_t*>(dstLocal.ptr_) +
                     (uint64_t(k / 8) * repeatParams.dstRepStride + (k % 8) * repeatParams.dstBlkStride) * 32;
        opkg_sim::check_read(s, 32, op, "src0", loc);
        std::memmove(d, s, 32);
        opkg_sim::mark_written(d, 32);
    }
}

// ---- BilinearInterpolation ----
// (basic_api/kernel_operator_vec_bilinearinterpolation_intf.h; the devkit documents it step by
// step.) Repeat r = i * hRepeat + j (vertical i, horizontal j) gathers 8 blocks of src0 (byte
// offsets src0Offset[8r + b], 32-byte aligned) and multiplies every element of block b by src1[r]
// (repeatMode false) or src1[8r + b] (true), each product rounded to half; the products of a lane
// are summed over j in order, each sum rounded, and the lanes the mask selects go to dst, vertical
// repeat i at i * vROffset elements, block b at b * dstBlkStride blocks. The A2/A3 work in
// sharedTmpBuffer as the device does (the gathered blocks, then src1 broadcast to one block an
// element after them: hRepeat * vRepeat * 256 + src1.GetSize() * 32 bytes, overwritten); the 310P
// reads the offsets through it (src0Offset.GetSize() * 4 bytes); the 950 takes none. The 310B
// and the 910 have none (its documentation's product table): a kernel calling it there does not
// compile.
}  // namespace AscendC

#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 2002 || __NPU_ARCH__ == 2201 || __NPU_ARCH__ == 3510)

namespace opkg_sim {
template <class T>
inline void bilinear_interpolation(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                                   const AscendC::LocalTensor<uint32_t>& offsets, const AscendC::LocalTensor<T>& src1,
                                   const Mask& m, uint8_t hRepeat, bool repeatMode, uint16_t dstBlkStride,
                                   uint16_t vROffset, uint8_t vRepeat, const AscendC::LocalTensor<uint8_t>& tmp,
                                   SrcLoc loc) {
    static_assert(std::is_same<T, half>::value, "BilinearInterpolation takes half tensors");
    const char* op = "BilinearInterpolation";
    if (hRepeat == 0 || vRepeat == 0) {
        fail(loc, format("%s: hRepeat %u and vRepeat %u must be in [1, 255] (with none, the device copies its "
                         "temporary buffer's undefined bytes to dst)", op, unsigned(hRepeat), unsigned(vRepeat)));
    }
    if (uint64_t(vROffset) * sizeof(T) % 32) {
        fail(loc, format("%s: vROffset %u elements is not a whole number of 32-byte blocks, which is how the device "
                         "steps dst between vertical repeats", op, unsigned(vROffset)));
    }
    const uint32_t reps = uint32_t(hRepeat) * vRepeat;
    const uint64_t weights = repeatMode ? uint64_t(reps) * 8 : reps;
    check_ub(offsets, uint64_t(reps) * 8 * 4, op, "src0Offset", loc);
    check_ub(src1, weights * sizeof(T), op, "src1", loc);
    check_ub(src0, 0, op, "src0", loc);
    const uint64_t dst_end = uint64_t(vRepeat - 1) * vROffset * sizeof(T) + 7ull * dstBlkStride * 32 + 32;
    check_ub(dst, dst_end, op, "dst", loc);
    if (vRepeat > 1 && uint64_t(vROffset) * sizeof(T) < 7ull * dstBlkStride * 32 + 32) {
        // the device writes the vertical repeats in order, the later over the earlier
        const std::string what = format("%s: vertical repeats %u elements apart overlap in dst (each spans %llu "
                                        "bytes; vROffset must be in [128, 65535))", op, unsigned(vROffset),
                                        (unsigned long long)(7ull * dstBlkStride * 32 + 32));
        if (block().strict_bounds) fail(loc, what + " (--strict-bounds)");
        if (!block().warned || block().warned->first(loc)) {
            log_line(format("warning: %s:%d: %s; the device writes them in order, the later repeat winning "
                            "(--strict-bounds makes this an error)", loc.file ? loc.file : "?", loc.line,
                            what.c_str()));
        }
    }
    // the work area: the A2/A3's sharedTmpBuffer, else the sim's own
    const uint64_t broadcast = uint64_t(src1.size_) / 8 * 8;   // the device broadcasts groups of 8
    if (weights > broadcast) {
        fail(loc, format("%s: the repeats take %llu elements of src1, which holds %u (%llu in whole groups of "
                         "8, which is what the device broadcasts)", op, (unsigned long long)weights, src1.size_,
                         (unsigned long long)broadcast));
    }
    const uint64_t work_bytes = uint64_t(reps) * 256 + broadcast * 32;
    std::vector<T> own;
    T* work;
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 2201
    check_ub(tmp, work_bytes, op, "sharedTmpBuffer", loc);
    work = reinterpret_cast<T*>(tmp.ptr_);
#else
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 2002
    check_ub(tmp, uint64_t(offsets.size_) * 4, op, "sharedTmpBuffer", loc);
#endif
    own.resize(work_bytes / sizeof(T));
    work = own.data();
#endif
    count_level0<T>(op, m, reps);
    const uint64_t src_bytes = uint64_t(src0.size_) * sizeof(T);
    constexpr uint32_t per_block = 32 / sizeof(T), lanes = 8 * per_block;
    T* const brcb = work + uint64_t(reps) * lanes;
    check_read(src1.ptr_, weights * sizeof(T), op, "src1", loc);
    for (uint64_t w = 0; w < broadcast; ++w) {          // src1 broadcast: one block an element
        for (uint32_t k = 0; k < per_block; ++k) brcb[w * per_block + k] = src1.ptr_[w];
    }
    for (uint32_t r = 0; r < reps; ++r) {               // gather and multiply
        for (uint32_t b = 0; b < 8; ++b) {
            const uint32_t off = offsets.ptr_[uint64_t(r) * 8 + b];
            check_read(offsets.ptr_ + uint64_t(r) * 8 + b, 4, op, "src0Offset", loc);
            if (off % 32) fail(loc, format("%s: src0Offset[%u] is %u, not a multiple of 32 bytes", op, r * 8 + b, off));
            if (uint64_t(off) + 32 > src_bytes) {
                fail(loc, format("%s: src0Offset[%u] (%u bytes) reads past src0's %llu bytes", op, r * 8 + b, off,
                                 (unsigned long long)src_bytes));
            }
            const T* s = reinterpret_cast<const T*>(reinterpret_cast<const uint8_t*>(src0.ptr_) + off);
            check_read(s, 32, op, "src0", loc);
            const T weight = brcb[(repeatMode ? uint64_t(r) * 8 + b : r) * per_block];
            for (uint32_t k = 0; k < per_block; ++k) {
                work[uint64_t(r) * lanes + b * per_block + k] = T(float(s[k]) * float(weight));
            }
        }
    }
    for (uint32_t i = 0; i < vRepeat; ++i) {            // sum the horizontal repeats, write the lanes
        T* acc = work + uint64_t(i) * hRepeat * lanes;
        uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr_) + uint64_t(i) * vROffset * sizeof(T);
        for (uint32_t j = 0; j < lanes; ++j) {
            if (!m.test(j)) continue;
            for (uint32_t h = 1; h < hRepeat; ++h) acc[j] = T(float(acc[j]) + float(acc[uint64_t(h) * lanes + j]));
            uint8_t* pd = d + elem_offset<T>(0, j, dstBlkStride, 0);
            std::memcpy(pd, &acc[j], sizeof(T));
            mark_written(pd, sizeof(T));
        }
    }
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 2201
    mark_written(tmp.ptr_, work_bytes);
#endif
}
}  // namespace opkg_sim

namespace AscendC {

template <typename T>
inline void BilinearInterpolation(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                                  const LocalTensor<uint32_t>& src0Offset, const LocalTensor<T>& src1, uint64_t mask,
                                  uint8_t hRepeat, bool repeatMode, uint16_t dstBlkStride, uint16_t vROffset,
                                  uint8_t vRepeat, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                  opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::bilinear_interpolation(dst, src0, src0Offset, src1,
                                     opkg_sim::continuous_mask<T>(mask, "BilinearInterpolation", loc), hRepeat,
                                     repeatMode, dstBlkStride, vROffset, vRepeat, sharedTmpBuffer, loc);
}
template <typename T>
inline void BilinearInterpolation(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                                  const LocalTensor<uint32_t>& src0Offset, const LocalTensor<T>& src1,
                                  uint64_t mask[], uint8_t hRepeat, bool repeatMode, uint16_t dstBlkStride,
                                  uint16_t vROffset, uint8_t vRepeat, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                  opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::bilinear_interpolation(dst, src0, src0Offset, src1,
                                     opkg_sim::bit_mask<T>(mask, "BilinearInterpolation", loc), hRepeat, repeatMode,
                                     dstBlkStride, vROffset, vRepeat, sharedTmpBuffer, loc);
}
}  // namespace AscendC
#endif

namespace AscendC {

// ---- Scatter ----
// dst bytes (dstBaseAddr + dstOffset[i]) get src[i]: offsets in bytes, multiples of the element size.
template <typename T>
inline void scatter_one(const LocalTensor<T>& dst, const T* s, const uint32_t* off, uint32_t base, uint64_t i,
                        const char* op, opkg_sim::SrcLoc loc) {
    const uint64_t at = uint64_t(base) + off[i];
    if (at % sizeof(T)) {
        opkg_sim::fail(loc, opkg_sim::format("%s: element %llu goes to byte %llu, not a multiple of %u", op,
                                             (unsigned long long)i, (unsigned long long)at, unsigned(sizeof(T))));
    }
    if (at + sizeof(T) > uint64_t(dst.size_) * sizeof(T)) {
        opkg_sim::fail(loc, opkg_sim::format("%s: element %llu goes to byte %llu, past dst's %llu bytes", op,
                                             (unsigned long long)i, (unsigned long long)at,
                                             (unsigned long long)(uint64_t(dst.size_) * sizeof(T))));
    }
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr_) + at;
    opkg_sim::check_read(s, sizeof(T), op, "src", loc);
    std::memcpy(d, s, sizeof(T));
    opkg_sim::mark_written(d, sizeof(T));
}

template <typename T>
inline void Scatter(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                    const LocalTensor<uint32_t>& dstOffsetLocal, const uint32_t dstBaseAddr, const uint32_t count,
                    opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Scatter takes 16- or 32-bit elements");
    opkg_sim::check_vec(srcLocal, count, "Scatter", "src", loc);
    opkg_sim::check_vec(dstOffsetLocal, count, "Scatter", "dstOffset", loc);
    opkg_sim::check_ub(dstLocal, 0, "Scatter", "dst", loc);
    opkg_sim::check_use(dstOffsetLocal.ptr_, uint64_t(count) * 4, "Scatter", "dstOffset", loc, opkg_sim::Pipe::V);
    opkg_sim::count_vec_of<T>("Scatter", count);
    for (uint64_t i = 0; i < count; ++i) scatter_one(dstLocal, srcLocal.ptr_ + i, dstOffsetLocal.ptr_, dstBaseAddr, i, "Scatter", loc);
}

// Level 0: the masked lanes of each repeat (src repeats srcRepStride blocks apart, offsets consecutive).
template <typename T>
inline void scatter_level0(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& off,
                           uint32_t base, const opkg_sim::Mask& m, uint32_t repeat, uint8_t srcRepStride,
                           opkg_sim::SrcLoc loc) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Scatter takes 16- or 32-bit elements");
    repeat = m.reps(repeat);
    const uint32_t lanes = 256 / sizeof(T);
    opkg_sim::check_level0(src, m, repeat, 1, srcRepStride, "Scatter", "src", loc);
    opkg_sim::check_ub(off, uint64_t(repeat ? (repeat - 1) * lanes + m.last() + 1 : 0) * 4, "Scatter", "dstOffset", loc);
    opkg_sim::check_ub(dst, 0, "Scatter", "dst", loc);
    opkg_sim::count_level0<T>("Scatter", m, repeat);
    for (uint32_t r = 0; r < repeat; ++r) {
        for (uint32_t j = 0; j < lanes; ++j) {
            if (!m.test(r, j)) continue;
            const uint64_t i = uint64_t(r) * lanes + j;
            opkg_sim::check_use(off.ptr_ + i, 4, "Scatter", "dstOffset", loc, opkg_sim::Pipe::V);
            const T* s = reinterpret_cast<const T*>(reinterpret_cast<const uint8_t*>(src.ptr_) +
                                                    opkg_sim::elem_offset<T>(r, j, 1, srcRepStride));
            scatter_one(dst, s, off.ptr_, base, i, "Scatter", loc);
        }
    }
}

template <typename T>
inline void Scatter(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                    const LocalTensor<uint32_t>& dstOffsetLocal, const uint32_t dstBaseAddr, const uint64_t mask,
                    const uint8_t repeatTimes, const uint8_t srcRepStride,
                    opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    scatter_level0(dstLocal, srcLocal, dstOffsetLocal, dstBaseAddr, opkg_sim::continuous_mask<T, true>(mask, "Scatter", loc),
                   repeatTimes, srcRepStride, loc);
}
template <typename T>
inline void Scatter(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                    const LocalTensor<uint32_t>& dstOffsetLocal, const uint32_t dstBaseAddr, const uint64_t mask[],
                    const uint8_t repeatTimes, const uint8_t srcRepStride,
                    opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    scatter_level0(dstLocal, srcLocal, dstOffsetLocal, dstBaseAddr, opkg_sim::bit_mask<T, true>(mask, "Scatter", loc),
                   repeatTimes, srcRepStride, loc);
}

// ---- DumpAccChkPoint ----
// DumpTensor of dumpSize elements starting countOff elements into the tensor.
template <typename T>
inline void DumpAccChkPoint(const LocalTensor<T>& tensor, uint32_t index, uint32_t countOff, uint32_t dumpSize,
                            opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    if (uint64_t(countOff) + dumpSize > tensor.size_) {
        opkg_sim::fail(loc, opkg_sim::format("DumpAccChkPoint: countOff %u + dumpSize %u is past the tensor's %u elements",
                                             countOff, dumpSize, tensor.size_));
    }
    opkg_sim::check_read(tensor.ptr_ + countOff, uint64_t(dumpSize) * sizeof(T), "DumpAccChkPoint", "the tensor", loc,
                         opkg_sim::Pipe::NONE);
    dump_values(opkg_sim::format("UB@%llu+%u", (unsigned long long)tensor.ub_offset(), countOff).c_str(),
                tensor.ptr_ + countOff, index, dumpSize);
}
template <typename T>
inline void DumpAccChkPoint(const GlobalTensor<T>& tensor, uint32_t index, uint32_t countOff, uint32_t dumpSize,
                            opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::check_gm(tensor.ptr_ + countOff, uint64_t(dumpSize) * sizeof(T), "DumpAccChkPoint", loc);
    dump_values(opkg_sim::format("GM+%u", countOff).c_str(), tensor.ptr_ + countOff, index, dumpSize);
}

}  // namespace AscendC
#endif
