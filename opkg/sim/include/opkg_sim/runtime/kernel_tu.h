// Force-included into every kernel translation unit after the emulation headers (and after
// their precompiled form, opkg/sim/flags.py): the parts that depend on the op being compiled.
// The headers themselves must not test per-op or per-variant macros (-DOPKG_SIM_OP_TYPE,
// -DDTYPE_*), or g++ would refuse the precompiled header built once per architecture.
#ifndef OPKG_SIM_KERNEL_TU_H
#define OPKG_SIM_KERNEL_TU_H

#include "opkg_sim/basic_api/core/tiling_slot.h"

#ifdef OPKG_SIM_OP_TYPE
namespace optiling {
struct OPKG_SIM_CAT(OpkgOpTag_, OPKG_SIM_OP_TYPE);
}  // namespace optiling
#undef OPKG_SIM_REGISTERED_TILING
#define OPKG_SIM_REGISTERED_TILING \
    ::optiling::OpkgTilingSlot<::optiling::OPKG_SIM_CAT(OpkgOpTag_, OPKG_SIM_OP_TYPE)>::type
#endif

// The struct the kernel registers with REGISTER_TILING_DEFAULT (-DOPKG_SIM_TILING_DEFAULT, from
// its source): GET_TILING_DATA reads it even where the registration comes after it in the
// function (ops-nn's hardtanh_grad), as CANN's build applies it.
#ifdef OPKG_SIM_TILING_DEFAULT
#undef OPKG_SIM_REGISTERED_TILING
#define OPKG_SIM_REGISTERED_TILING OPKG_SIM_TILING_DEFAULT
#endif

#endif
