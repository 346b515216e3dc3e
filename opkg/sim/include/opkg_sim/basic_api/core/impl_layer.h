// Entry points of CANN's implementation layer that some operators call directly instead of the
// public API (cann-ops GeGluV2/V3 zero GM this way): DuplicateImpl, DataCopyUB2GMImpl,
// DataCopyGM2UBImpl and DataCopyPad's Gm2UB/UB2GM forms on raw UB/GM pointers (the set_flag/wait_flag builtins they pair with are in
// kmisc.h), and TransDataTo5HDImpl on lists of 16 UB addresses (cann-ops GeGluGradV2). Each becomes the public API call it implements, on a tensor that runs from
// the pointer to the end of the UB, so every check of that call applies.
#ifndef OPKG_SIM_IMPL_LAYER_H
#define OPKG_SIM_IMPL_LAYER_H

#include "opkg_sim/basic_api/core/datacopy.h"
#include "opkg_sim/basic_api/vector/vector.h"
#include "opkg_sim/basic_api/core/kmisc.h"
#include "opkg_sim/basic_api/vector/trans5hd.h"

namespace opkg_sim {

// A raw UB pointer (a device UB offset, or the sim's host address from GetPhyAddr, tensor.h) as a
// LocalTensor reaching the end of the UB (the position only names it).
template <class T>
inline AscendC::LocalTensor<T> ub_tensor(T* p, const char* op, SrcLoc loc) {
    BlockState& b = block();
    const uintptr_t addr = ub_address(p);
    if (!b.ub || addr >= b.ub_bytes) {
        fail(loc, format("%s: %p is not a Unified Buffer address of this block (a UB address is an offset below "
                         "%llu, or an address inside this block's UB as LocalTensor::GetPhyAddr() gives it)", op, static_cast<const void*>(p),
                         (unsigned long long)b.ub_bytes));
    }
    return AscendC::LocalTensor<T>(reinterpret_cast<T*>(b.ub + addr), uint32_t((b.ub_bytes - addr) / sizeof(T)),
                                   AscendC::TPosition::VECCALC);
}

template <class T>
inline AscendC::GlobalTensor<T> gm_tensor(T* p) {
    AscendC::GlobalTensor<T> g;
    g.SetGlobalBuffer(p);
    return g;
}

}  // namespace opkg_sim

namespace AscendC {

template <typename T>
inline void DuplicateImpl(__ubuf__ T* dstLocal, const T& scalarValue, const int32_t& calCount,
                          opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    Duplicate(opkg_sim::ub_tensor(dstLocal, "DuplicateImpl", loc), scalarValue, calCount, loc);
}

template <typename T>
inline void DataCopyUB2GMImpl(__gm__ T* dst, __ubuf__ T* src, const DataCopyParams& intriParams,
                              opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    DataCopy(opkg_sim::gm_tensor(dst), opkg_sim::ub_tensor(src, "DataCopyUB2GMImpl", loc), intriParams, loc);
}

template <typename T>
inline void DataCopyGM2UBImpl(__ubuf__ T* dst, __gm__ T* src, const DataCopyParams& intriParams,
                              opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    DataCopy(opkg_sim::ub_tensor(dst, "DataCopyGM2UBImpl", loc), opkg_sim::gm_tensor(src), intriParams, loc);
}

// DataCopyPad's implementation on raw pointers (ops-nn's linear_index_v2 and scatter_elements_v2
// load int32 indices as uint32 this way), in both parameter forms.
template <typename T>
inline void DataCopyPadGm2UBImpl(__ubuf__ T* dst, __gm__ T* src, const DataCopyExtParams& intriParams,
                                 const DataCopyPadExtParams<T>& padParams,
                                 opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    DataCopyPad(opkg_sim::ub_tensor(dst, "DataCopyPadGm2UBImpl", loc), opkg_sim::gm_tensor(src), intriParams,
                padParams, loc);
}

template <typename T>
inline void DataCopyPadGm2UBImpl(__ubuf__ T* dst, __gm__ T* src, const DataCopyParams& intriParams,
                                 const DataCopyPadParams& padParams,
                                 opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    DataCopyPad(opkg_sim::ub_tensor(dst, "DataCopyPadGm2UBImpl", loc), opkg_sim::gm_tensor(src), intriParams,
                padParams, loc);
}

template <typename T>
inline void DataCopyPadUB2GMImpl(__gm__ T* dst, __ubuf__ T* src, const DataCopyExtParams& intriParams,
                                 opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    DataCopyPad(opkg_sim::gm_tensor(dst), opkg_sim::ub_tensor(src, "DataCopyPadUB2GMImpl", loc), intriParams, loc);
}

template <typename T>
inline void DataCopyPadUB2GMImpl(__gm__ T* dst, __ubuf__ T* src, const DataCopyParams& intriParams,
                                 opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    DataCopyPad(opkg_sim::gm_tensor(dst), opkg_sim::ub_tensor(src, "DataCopyPadUB2GMImpl", loc), intriParams, loc);
}

// CANN's dav_c220 impl: the lists as `__ubuf__ T*` UB addresses, or as uint64_t addresses;
// both are the public TransDataTo5HD on UB offsets (its checks apply per address).
template <typename T>
inline void TransDataTo5HDImpl(__ubuf__ T* dstList[NCHW_CONV_ADDR_LIST_SIZE],
                               __ubuf__ T* srcList[NCHW_CONV_ADDR_LIST_SIZE],
                               const TransDataTo5HDParams& transDataTo5HDParams,
                               opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    uint64_t d[NCHW_CONV_ADDR_LIST_SIZE], s[NCHW_CONV_ADDR_LIST_SIZE];
    for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
        d[i] = static_cast<uint64_t>(opkg_sim::ub_address(dstList[i]));
        s[i] = static_cast<uint64_t>(opkg_sim::ub_address(srcList[i]));
    }
    TransDataTo5HD<T>(d, s, transDataTo5HDParams, loc);
}

template <typename T>
inline void TransDataTo5HDImpl(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE], uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                               const TransDataTo5HDParams& transDataTo5HDParams,
                               opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    TransDataTo5HD<T>(dstList, srcList, transDataTo5HDParams, loc);
}

}  // namespace AscendC

// The CCE builtins DataCopyPad lowers to on the A2/A3 generation (asc-devkit's dav_c220
// kernel_operator_data_copy_impl.h passes DataCopyExtParams' fields in this order): nBurst rows
// of lenBurst bytes; GM->UB srcGap in bytes and dstGap in 32-byte blocks, UB->GM the other way
// round; the paddings in elements of the width the name gives, filled from the padding register
// (set_mov_pad_val). sid (the stream id) has no effect on the data.
namespace opkg_sim {
template <class B>
inline void copy_gm_to_ub_align(void* dst, void* src, uint16_t nBurst, uint32_t lenBurst, uint8_t leftPad,
                                uint8_t rightPad, uint32_t srcGap, uint32_t dstGap, const char* op, SrcLoc loc) {
    AscendC::DataCopyPadExtParams<B> pad;
    pad.leftPadding = leftPad;
    pad.rightPadding = rightPad;
    pad_gm_to_ub(ub_tensor(static_cast<B*>(dst), op, loc), gm_tensor(static_cast<B*>(src)),
                 AscendC::DataCopyExtParams(nBurst, lenBurst, srcGap, dstGap, 0), pad, false, loc);
}
template <class B>
inline void copy_ub_to_gm_align(void* dst, void* src, uint16_t nBurst, uint32_t lenBurst, uint32_t srcGap,
                                uint32_t dstGap, const char* op, SrcLoc loc) {
    pad_ub_to_gm(gm_tensor(static_cast<B*>(dst)), ub_tensor(static_cast<B*>(src), op, loc),
                 AscendC::DataCopyExtParams(nBurst, lenBurst, srcGap, dstGap, 0), false, loc);
}
}  // namespace opkg_sim

#define OPKG_SIM_COPY_ALIGN(BITS, B)                                                                          \
    inline void copy_gm_to_ubuf_align_b##BITS(__ubuf__ void* dst, __gm__ void* src, uint8_t /*sid*/,          \
                                              uint16_t nBurst, uint32_t lenBurst, uint8_t leftPaddingNum,     \
                                              uint8_t rightPaddingNum, uint32_t srcGap, uint32_t dstGap,      \
                                              opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {           \
        opkg_sim::copy_gm_to_ub_align<B>(dst, src, nBurst, lenBurst, leftPaddingNum, rightPaddingNum, srcGap, \
                                         dstGap, "copy_gm_to_ubuf_align_b" #BITS, loc);                       \
    }                                                                                                         \
    inline void copy_ubuf_to_gm_align_b##BITS(__gm__ void* dst, __ubuf__ void* src, uint8_t /*sid*/,          \
                                              uint16_t nBurst, uint32_t lenBurst, uint8_t /*leftPaddingNum*/, \
                                              uint8_t /*rightPaddingNum*/, uint32_t srcGap, uint32_t dstGap,  \
                                              opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {           \
        opkg_sim::copy_ub_to_gm_align<B>(dst, src, nBurst, lenBurst, srcGap, dstGap,                          \
                                         "copy_ubuf_to_gm_align_b" #BITS, loc);                               \
    }
OPKG_SIM_COPY_ALIGN(8, uint8_t)
OPKG_SIM_COPY_ALIGN(16, uint16_t)
OPKG_SIM_COPY_ALIGN(32, uint32_t)
#undef OPKG_SIM_COPY_ALIGN

// The padding register the GM->UB copies above fill with (SetPadValue sets the same register).
inline void set_mov_pad_val(uint64_t value) { opkg_sim::set_pad_value(value); }

#endif
