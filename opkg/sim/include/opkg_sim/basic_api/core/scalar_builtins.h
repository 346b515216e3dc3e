// Scalar min/max as the device compiler provides them to kernel code without any include or
// namespace (cann-ops' EyeFp64 and MatMulV3's nd2nz kernel call `min(a, b)` unqualified).
// Mixed argument types meet in their common type, as the builtins' overloads convert.
#ifndef OPKG_SIM_SCALAR_BUILTINS_H
#define OPKG_SIM_SCALAR_BUILTINS_H
#include <cstdint>
#include <type_traits>

template <class T, class U>
inline std::common_type_t<T, U> min(T a, U b) {
    using C = std::common_type_t<T, U>;
    return static_cast<C>(a) < static_cast<C>(b) ? static_cast<C>(a) : static_cast<C>(b);
}
template <class T, class U>
inline std::common_type_t<T, U> max(T a, U b) {
    using C = std::common_type_t<T, U>;
    return static_cast<C>(a) < static_cast<C>(b) ? static_cast<C>(b) : static_cast<C>(a);
}
// clz: the scalar unit's count of leading zero bits of a 64-bit value (the devkit's
// CountLeadingZeroImpl returns it; 64 for zero).
inline int64_t clz(uint64_t x) { return x ? __builtin_clzll(x) : 64; }
// bcnt1/bcnt0: its count of one and of zero bits of a 64-bit value (the devkit's
// ScalarGetCountOfValue returns them, impl/basic_api/kernel_scalar.h; ops-nn's softmax_grad_ext
// calls bcnt1 unqualified).
inline int64_t bcnt1(uint64_t x) { return __builtin_popcountll(x); }
inline int64_t bcnt0(uint64_t x) { return 64 - __builtin_popcountll(x); }
#endif
