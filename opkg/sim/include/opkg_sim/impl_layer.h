// Entry points of CANN's implementation layer that some operators call directly instead of the
// public API (cann-ops GeGluV2/V3 zero GM this way): DuplicateImpl, DataCopyUB2GMImpl and
// DataCopyGM2UBImpl on raw UB/GM pointers (the set_flag/wait_flag builtins they pair with are in
// kmisc.h). Each becomes the public API call it implements, on a tensor that runs from
// the pointer to the end of the UB, so every check of that call applies.
#ifndef OPKG_SIM_IMPL_LAYER_H
#define OPKG_SIM_IMPL_LAYER_H

#include "opkg_sim/datacopy.h"
#include "opkg_sim/vector.h"
#include "opkg_sim/kmisc.h"

namespace opkg_sim {

// A raw UB pointer as a LocalTensor reaching the end of the UB (the position only names it). As on
// the device, `(__ubuf__ T*)local.GetPhyAddr()` holds the UB address, i.e. the offset into the UB.
template <class T>
inline AscendC::LocalTensor<T> ub_tensor(T* p, const char* op, SrcLoc loc) {
    BlockState& b = block();
    const uintptr_t addr = reinterpret_cast<uintptr_t>(p);
    if (!b.ub || addr >= b.ub_bytes) {
        fail(loc, format("%s: %p is not a Unified Buffer address of this block (a UB address is an offset below "
                         "%llu, as LocalTensor::GetPhyAddr() gives it)", op, static_cast<const void*>(p),
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

}  // namespace AscendC

#endif
