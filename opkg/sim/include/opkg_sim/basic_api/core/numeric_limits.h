// AscendC::NumericLimits<T> (asc-devkit include/basic_api/kernel_operator_limits_intf.h): the
// extreme and special values of the vector unit's types, as constexpr functions. Types as the
// devkit allows them: 8/16/32-bit integers, half and float, and bfloat16_t on the Ascend 950;
// the float-only ones (infinities, NaNs, the smallest subnormal) for the float types alone.
// Min() is the smallest positive normal value of a float type (the lowest value of an integer).
// Included by kernel_operator.h after the tensors and vector instructions (the fill forms).
#ifndef OPKG_SIM_NUMERIC_LIMITS_H
#define OPKG_SIM_NUMERIC_LIMITS_H

#include <cstdint>
#include <limits>
#include <type_traits>

#include "opkg_sim/basic_api/core/ktypes.h"

namespace AscendC {

template <typename T>
struct NumericLimits {
private:
    static constexpr bool kFloat = std::is_same<T, half>::value || std::is_same<T, float>::value
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
                                   || std::is_same<T, bfloat16_t>::value
#endif
        ;
    static constexpr bool kInt = std::is_same<T, uint8_t>::value || std::is_same<T, int8_t>::value ||
                                 std::is_same<T, uint16_t>::value || std::is_same<T, int16_t>::value ||
                                 std::is_same<T, uint32_t>::value || std::is_same<T, int32_t>::value;
    // A float type's value from its bits: f16/bf16 codes, or float's.
    static constexpr T code(uint16_t h16, uint32_t f32, uint16_t bf16) {
        if constexpr (std::is_same<T, half>::value) return __builtin_bit_cast(half, h16);
        else if constexpr (std::is_same<T, float>::value) return __builtin_bit_cast(float, f32);
        else return __builtin_bit_cast(bfloat16_t, bf16);
    }

    // A float-only value (infinities, NaNs, the smallest subnormal).
    static constexpr T special(uint16_t h16, uint32_t f32, uint16_t bf16) {
        static_assert(kFloat, "current data type is not supported on current device!");
        return code(h16, f32, bf16);
    }
    // An integer type's value from std::numeric_limits, else a float type's from its bits.
    template <class Int>
    static constexpr T either(Int integer, uint16_t h16, uint32_t f32, uint16_t bf16) {
        static_assert(kInt || kFloat, "current data type is not supported on current device!");
        if constexpr (kInt) return integer;
        else return code(h16, f32, bf16);
    }

public:
    static constexpr T Max() { return either(std::numeric_limits<T>::max(), 0x7BFF, 0x7F7FFFFFu, 0x7F7F); }
    static constexpr T Lowest() { return either(std::numeric_limits<T>::lowest(), 0xFBFF, 0xFF7FFFFFu, 0xFF7F); }
    static constexpr T Min() { return either(std::numeric_limits<T>::lowest(), 0x0400, 0x00800000u, 0x0080); }
    static constexpr T Infinity() { return special(0x7C00, 0x7F800000u, 0x7F80); }
    static constexpr T NegativeInfinity() { return special(0xFC00, 0xFF800000u, 0xFF80); }
    static constexpr T QuietNaN() { return special(0x7E00, 0x7FC00000u, 0x7FC0); }
    static constexpr T SignalingNaN() { return special(0x7D00, 0x7FA00000u, 0x7FA0); }
    static constexpr T DeNormMin() { return special(0x0001, 0x00000001u, 0x0001); }

    // Each value over `count` elements of a tensor, by Duplicate (the devkit's tensor forms:
    // rms_norm_grad fills a row with QuietNaN(dst, count)); vector.h declares Duplicate.
#define OPKG_NUMERIC_FILL(NAME)                                                                     \
    static void NAME(const LocalTensor<T>& dst, uint32_t count,                                    \
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {                          \
        Duplicate(dst, NAME(), static_cast<int32_t>(count), loc);                                   \
    }
    OPKG_NUMERIC_FILL(Max) OPKG_NUMERIC_FILL(Lowest) OPKG_NUMERIC_FILL(Min) OPKG_NUMERIC_FILL(Infinity)
    OPKG_NUMERIC_FILL(NegativeInfinity) OPKG_NUMERIC_FILL(QuietNaN) OPKG_NUMERIC_FILL(SignalingNaN)
    OPKG_NUMERIC_FILL(DeNormMin)
#undef OPKG_NUMERIC_FILL
};

}  // namespace AscendC
#endif
