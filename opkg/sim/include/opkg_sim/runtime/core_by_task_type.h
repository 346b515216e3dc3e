// Force-included into the kernels that declare a tiling key KERNEL_TYPE_AIC_ONLY
// (flags.core_type_flags; after the precompiled headers, which it leaves as they are). Such a key
// is a cube body: CANN builds it for the AI cores alone, and its code tests the core it runs on
// (`if ASCEND_IS_AIV { return; }`, ops-nn's and cann-ops' MatMulV3). The sim runs an A2/A3 kernel
// as its vector body; here the core type is the block's (BlockState::core) instead of a constant:
// KERNEL_TASK_TYPE(key, KERNEL_TYPE_AIC_ONLY) makes the block AIC for that key, on one core per
// AI core (the second AIV of a mixed kernel's pair returns, so GetBlockIdx counts AI cores);
// any other declared type keeps the vector body.
#ifndef OPKG_SIM_CORE_BY_TASK_TYPE_H
#define OPKG_SIM_CORE_BY_TASK_TYPE_H

#include "opkg_sim/basic_api/core/kcore.h"
#include "opkg_sim/basic_api/core/kmisc.h"   // first: its no-op macros are replaced below

#if defined(__DAV_C220_VEC__)
// the core type follows the declared task types (tpl_kernel.cpp.j2 tests this; other SoCs keep theirs)
#define OPKG_SIM_CORE_BY_TASK_TYPE 1
namespace opkg_sim {
// Whether the block leaves the kernel: it applies the declared type `t` when `applies`.
inline bool enter_task_type(bool applies, KernelMetaType t) {
    if (!applies) return false;
    BlockState& b = block();
    b.core = t == KERNEL_TYPE_AIC_ONLY ? AscendC::AIC : AscendC::AIV;
    return b.core == AscendC::AIC && b.ration > 1 && b.idx % b.ration != 0;
}
}  // namespace opkg_sim

#undef ASCEND_IS_AIV
#undef ASCEND_IS_AIC
#undef ASCEND_IS_NOT_AIV
#undef ASCEND_IS_NOT_AIC
#define ASCEND_IS_AIV (::opkg_sim::block().core == ::AscendC::AIV)
#define ASCEND_IS_AIC (::opkg_sim::block().core == ::AscendC::AIC)
#define ASCEND_IS_NOT_AIV (::opkg_sim::block().core != ::AscendC::AIV)
#define ASCEND_IS_NOT_AIC (::opkg_sim::block().core != ::AscendC::AIC)
#undef KERNEL_TASK_TYPE_DEFAULT
#undef KERNEL_TASK_TYPE
#define KERNEL_TASK_TYPE_DEFAULT(x)                                  \
    do {                                                             \
        if (::opkg_sim::enter_task_type(true, (x))) return;          \
    } while (0)
#define KERNEL_TASK_TYPE(key, x)                                     \
    do {                                                             \
        if (::opkg_sim::enter_task_type(TILING_KEY_IS(key), (x))) return; \
    } while (0)
#endif

#endif
