// Kernel side of tiling data. REGISTER_TILING_DATA_CLASS(Op, Cls) (kernel mode of
// register/tilingdata_base.h, inside namespace optiling) specialises OpkgTilingSlot for the
// op's tag; GET_TILING_DATA looks the struct up for the op type given by -DOPKG_SIM_OP_TYPE
// (opkg_sim/runtime/kernel_tu.h).
// REGISTER_TILING_DEFAULT(Cls) in a kernel body shadows the lookup, as in CANN.
#ifndef OPKG_SIM_TILING_SLOT_H
#define OPKG_SIM_TILING_SLOT_H

#include <cstdint>
#include <cstring>
#include <type_traits>

#define OPKG_SIM_CAT_(a, b) a##b
#define OPKG_SIM_CAT(a, b) OPKG_SIM_CAT_(a, b)

namespace opkg_sim {
struct NoTilingRegistered {};
}

// Global fallback that a block-scope REGISTER_TILING_DEFAULT alias hides.
struct OpkgTilingOverride {};

namespace optiling {
template <class Tag> struct OpkgTilingSlot { using type = ::opkg_sim::NoTilingRegistered; };
}  // namespace optiling

namespace opkg_sim {

template <class Override, class Registered> struct pick_tiling { using type = Override; };
template <class Registered> struct pick_tiling<::OpkgTilingOverride, Registered> { using type = Registered; };

template <class T>
inline void load_tiling(T* dst, const uint8_t* src) {
    static_assert(!std::is_same<T, NoTilingRegistered>::value,
                  "GET_TILING_DATA: no tiling data struct is registered for this op type. Register one with "
                  "REGISTER_TILING_DATA_CLASS(<OpType>, <Struct>) inside namespace optiling in the tiling header "
                  "named by the manifest's tiling.data, or use GET_TILING_DATA_WITH_STRUCT / REGISTER_TILING_DEFAULT.");
    static_assert(std::is_trivially_copyable<T>::value, "tiling data struct must be trivially copyable");
    if (src) std::memcpy(static_cast<void*>(dst), src, sizeof(T));
}

// COPY_TILING_WITH_STRUCT's source: a pointer to the struct, or the struct itself
template <class T> inline const void* tiling_source(const T* p) { return p; }
template <class T> inline const void* tiling_source(const T& v) { return &v; }

}  // namespace opkg_sim

// A kernel translation unit names its op type in opkg_sim/runtime/kernel_tu.h (force-included after
// these headers, which must not test per-op macros: they are precompiled once per architecture).
#define OPKG_SIM_REGISTERED_TILING ::opkg_sim::NoTilingRegistered

#define GET_TILING_DATA(var, tiling)                                                        \
    typename ::opkg_sim::pick_tiling<OpkgTilingOverride, OPKG_SIM_REGISTERED_TILING>::type var; \
    ::opkg_sim::load_tiling(&var, reinterpret_cast<const uint8_t*>(tiling))

#define GET_TILING_DATA_WITH_STRUCT(type_name, var, tiling) \
    type_name var;                                          \
    ::opkg_sim::load_tiling(&var, reinterpret_cast<const uint8_t*>(tiling))

#define GET_TILING_DATA_PTR_WITH_STRUCT(type_name, var, tiling) \
    const type_name* var = reinterpret_cast<const type_name*>(tiling)

// The devkit's COPY_TILING_WITH_STRUCT: a copy, on the stack, of the tiling struct at src_ptr (a
// member struct of the tiling data, by pointer or by reference), and dst_ptr pointing at it
// (ops-nn's fused_linear_cross_entropy_loss_grad copies each matmul's TCubeTiling).
#define COPY_TILING_WITH_STRUCT(tiling_struct, src_ptr, dst_ptr)                              \
    tiling_struct dst_ptr##_obj;                                                              \
    std::memcpy(static_cast<void*>(&dst_ptr##_obj), ::opkg_sim::tiling_source(src_ptr), sizeof(tiling_struct)); \
    tiling_struct* dst_ptr = &dst_ptr##_obj

#define GET_TILING_DATA_MEMBER(type_name, member, var, tiling)                                     \
    decltype(type_name::member) var;                                                                \
    std::memcpy(&var, reinterpret_cast<const uint8_t*>(tiling) + offsetof(type_name, member), sizeof(var))

#define REGISTER_TILING_DEFAULT(type_name) using OpkgTilingOverride = type_name
#define REGISTER_TILING_FOR_TILINGKEY(expr, type_name)
// a marker for CANN's precompile pass (the atvoss schedulers' "no custom tiling struct"); nothing
// in a compile, as the devkit's kernel_utils_macros.h has it
#define REGISTER_NONE_TILING
// a marker for the op compiler's precompile pass (build the kernel for deterministic computation,
// kernel_utils_macros.h's ENABLE_FEATURE_FOR_COMPILE); nothing in a compile, and the sim's
// blocks compute deterministically whatever it says
#define ENABLE_DETERMINISTIC()

#endif
