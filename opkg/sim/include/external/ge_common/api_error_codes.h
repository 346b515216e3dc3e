// metadef's external/ge_common/api_error_codes.h: ge::Status and the general codes SUCCESS and
// FAILED (ops-nn's matmul tiling returns ge::FAILED), with metadef's values. metadef's
// tiling_context.h includes it, so the sim's does too. The codes' description registry
// (StatusFactory) is left out: nothing an operator's host code calls reads it.
#ifndef OPKG_SIM_EXTERNAL_GE_COMMON_API_ERROR_CODES_H
#define OPKG_SIM_EXTERNAL_GE_COMMON_API_ERROR_CODES_H
#include <cstdint>

namespace ge {
using Status = uint32_t;
// GE_ERRORNO's fields, high to low: runtime 2 bits, type 2, level 3, sysid 8, modid 5, value 12
constexpr Status opkg_errorno(uint32_t runtime, uint32_t type, uint32_t level, uint32_t sysid, uint32_t modid,
                              uint32_t value) {
    return ((runtime & 0xFFU) << 30U) | ((type & 0xFFU) << 28U) | ((level & 0xFFU) << 25U) |
           ((sysid & 0xFFU) << 17U) | ((modid & 0xFFU) << 12U) | (value & 0x0FFFU);
}
constexpr Status SUCCESS = opkg_errorno(0, 0, 0, 0, 0, 0);
constexpr Status FAILED = opkg_errorno(0b11, 0b11, 0b111, 0xFFU, 0b11111, 0xFFFU);
constexpr Status END_OF_SEQUENCE = opkg_errorno(0b01, 0b01, 0b000, 8, 0, 7);
static_assert(FAILED == 0xFFFFFFFFU, "metadef's FAILED is every bit set");
}  // namespace ge
#endif
