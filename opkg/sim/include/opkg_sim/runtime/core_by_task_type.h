// Force-included into the A2/A3 kernels whose code depends on the core it runs on: they declare a
// tiling key's task type (KERNEL_TASK_TYPE with a cube or mixed type, a template kernel's
// ASCENDC_TPL_KERNEL_TYPE_SEL), or synchronise the cube and vector cores of an AI core
// (flags.core_type_flags; after the precompiled headers, which it leaves as they are), and those
// that only test the core type where they are mixed (OPKG_SIM_SPLIT_IF_MIXED below).
//
// Such a kernel runs split, as the device runs a mixed kernel: every AI core of the launch runs
// the kernel's cube body (core AIC) and its two vector bodies (core AIV) on their own, and the
// task type the running key declares decides which of them the device starts (apply_task_type,
// kcore.h): the cube body alone for KERNEL_TYPE_AIC_ONLY, both for MIX_AIC_1_2, one AIV for
// MIX_AIC_1_1, blockDim vector cores for AIV_ONLY. A key that declares nothing takes the kernel's
// default: MIX_AIC_1_2 when it uses the Matmul API (CANN builds such a kernel mixed), AIV_ONLY
// otherwise. `ASCEND_IS_AIC`/`ASCEND_IS_AIV` read the body's core; the cross-core flags between the
// bodies of one AI core are cross_core.h's.
#ifndef OPKG_SIM_CORE_BY_TASK_TYPE_H
#define OPKG_SIM_CORE_BY_TASK_TYPE_H

#include "opkg_sim/basic_api/core/kcore.h"
#include "opkg_sim/basic_api/core/kmisc.h"   // first: its no-op macros are replaced below

#if defined(__DAV_C220_VEC__) || defined(__DAV_C220_CUBE__)
// the core type follows the declared task types (tpl_kernel.cpp.j2 tests this; other SoCs keep theirs)
#define OPKG_SIM_CORE_BY_TASK_TYPE 1
namespace opkg_sim {
// OPKG_SIM_SPLIT_IF_MIXED (flags.core_type_flags): the kernel only tests the core type; it runs
// split when it is mixed (uses the Matmul API, kernel_task_ration() 2), else as vector bodies.
struct SplitKernel {
#ifdef OPKG_SIM_SPLIT_IF_MIXED
    SplitKernel() { kernel_split_cores() = kernel_split_cores() == 1 ? 1 : 2; }
#else
    SplitKernel() { kernel_split_cores() = 1; }
#endif
};
inline const SplitKernel split_kernel_registration;

// Records the declared type `t` when `applies` (the running key's, or the default declaration).
// A later declaration before the body's first API call overrides it (KERNEL_TASK_TYPE_DEFAULT
// and then the key's KERNEL_TASK_TYPE); the first API call fixes it, and a body the type does
// not start leaves there (LeaveBody). Never asks the caller to return: what a body does before
// its first API call is its own scalar code.
inline bool enter_task_type(bool applies, KernelMetaType t) {
    BlockState& b = block();
    if (applies && b.split && b.type_open) apply_task_type(b, int(t));
    return false;
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
