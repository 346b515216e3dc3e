// The type traits of CANN's kernel utilities that kernels use directly
// (`if constexpr (IsSameType<T, half>::value)`, `SupportType<T, half, float>()`).
#ifndef OPKG_SIM_KTRAITS_H
#define OPKG_SIM_KTRAITS_H

namespace AscendC {

template <int v> struct IntegralConstant {
    static constexpr int value = v;
};
using TrueType = IntegralConstant<1>;
using FalseType = IntegralConstant<0>;

template <class T, class U> struct IsSameType : public FalseType {};
template <class T> struct IsSameType<T, T> : public TrueType {};

// Whether T is one of the listed types.
template <class T, class U, class... Rest> constexpr bool SupportType() {
    if constexpr (sizeof...(Rest) > 0) {
        return IsSameType<T, U>::value || SupportType<T, Rest...>();
    } else {
        return IsSameType<T, U>::value;
    }
}

}  // namespace AscendC

#endif
