// Scalar bit functions, ScalarCast, system registers and the cache/ICache hints: what a block can
// ask its scalar unit. The sim has no caches, so the hints are accepted and do nothing.
#ifndef OPKG_SIM_KSYS_H
#define OPKG_SIM_KSYS_H

#include <chrono>
#include <limits>
#include <type_traits>
#include "opkg_sim/basic_api/core/kcore.h"
#include "opkg_sim/basic_api/core/tensor.h"
#include "opkg_sim/basic_api/vector/vector.h"

namespace AscendC {

// The number of bits of valueIn equal to countValue (0 or 1).
template <int countValue> inline int64_t ScalarGetCountOfValue(uint64_t valueIn) {
    static_assert(countValue == 0 || countValue == 1, "countValue must be 1 or 0");
    const int64_t ones = __builtin_popcountll(valueIn);
    return countValue == 1 ? ones : 64 - ones;
}

inline int64_t ScalarCountLeadingZero(uint64_t valueIn) { return valueIn ? __builtin_clzll(valueIn) : 64; }

// The run of bits below the sign bit that equal it (0 and -1: 63).
inline int64_t CountBitsCntSameAsSignBit(int64_t valueIn) {
    const uint64_t u = static_cast<uint64_t>(valueIn < 0 ? ~valueIn : valueIn);   // sign bit now 0
    return (u ? __builtin_clzll(u) : 64) - 1;
}

// The position of the lowest bit equal to countValue, -1 when there is none.
template <int countValue> inline int64_t ScalarGetSFFValue(uint64_t valueIn) {
    static_assert(countValue == 0 || countValue == 1, "countValue must be 1 or 0");
    const uint64_t u = countValue == 1 ? valueIn : ~valueIn;
    return u ? __builtin_ctzll(u) : -1;
}

// The magic number and shift that turn an unsigned division by `divisor` into a high multiply,
// an add and a shift (the 950's scalar API; Simt::UintDiv divides with them): shift is
// ceil(log2(divisor)), magic 2^bits * (2^shift - divisor) / divisor + 1. The device asserts a
// divisor in (0, INT32_MAX] (uint32_t) or (0, INT64_MAX] (uint64_t).
template <typename T>
inline void GetUintDivMagicAndShift(T& magic, T& shift, T divisor,
                                    opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    static_assert(std::is_same<T, uint32_t>::value || std::is_same<T, uint64_t>::value,
                  "GetUintDivMagicAndShift takes uint32_t or uint64_t");
    constexpr int bits = sizeof(T) * 8;
    if (divisor == 0 || divisor > T(std::numeric_limits<std::make_signed_t<T>>::max())) {
        opkg_sim::fail(loc, opkg_sim::format("GetUintDivMagicAndShift: divisor %llu outside (0, %s]",
                                             (unsigned long long)divisor, bits == 32 ? "INT32_MAX" : "INT64_MAX"));
    }
    const int pos = 64 - __builtin_clzll(uint64_t(divisor));
    shift = T(__builtin_popcountll(uint64_t(divisor)) == 1 ? pos - 1 : pos);
    const unsigned __int128 over = (static_cast<unsigned __int128>(1) << int(shift)) - divisor;
    magic = T((over << bits) / divisor + 1);
}

// float -> half (CAST_ODD) or int32_t (CAST_ROUND/CEIL/FLOOR/RINT), the modes CANN's scalar
// unit has; another pairing fails to compile.
template <typename srcT, typename dstT, RoundMode roundMode> inline dstT ScalarCast(srcT valueIn) {
    static_assert(std::is_same<srcT, float>::value, "ScalarCast converts float");
    static_assert(std::is_same<dstT, half>::value || std::is_same<dstT, int32_t>::value,
                  "ScalarCast: dstT only supports half or int32_t");
    static_assert(!std::is_same<dstT, half>::value || roundMode == RoundMode::CAST_ODD,
                  "ScalarCast to half takes RoundMode::CAST_ODD");
    static_assert(!std::is_same<dstT, int32_t>::value ||
                      (roundMode == RoundMode::CAST_ROUND || roundMode == RoundMode::CAST_CEIL ||
                       roundMode == RoundMode::CAST_FLOOR || roundMode == RoundMode::CAST_RINT),
                  "ScalarCast to int32_t takes CAST_ROUND, CAST_CEIL, CAST_FLOOR or CAST_RINT");
    return opkg_sim::convert<dstT, srcT>(valueIn, roundMode);
}

// One data block of the UB, in bytes (the devkit's kernel_operator_sys_var_intf.h)
constexpr int16_t GetDataBlockSizeInBytes() { return ONE_BLK_SIZE; }

// Nanoseconds of a monotonic clock, as CANN's CPU debug build counts (the device counts cycles).
inline int64_t GetSystemCycle() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch()).count();
}
// The register layout of the device's arch version is undocumented: the sim answers __NPU_ARCH__.
inline void GetArchVersion(uint32_t& coreVersion) {
#ifdef __NPU_ARCH__
    coreVersion = uint32_t(__NPU_ARCH__);
#else
    coreVersion = 0;
#endif
}
inline int64_t GetProgramCounter() { return static_cast<int64_t>(opkg_sim::block().last.line); }

// The device stops the kernel with an exception: a failure with the call's file:line.
inline void Trap(opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::fail(loc, "Trap: the kernel raised a trap (the device stops the AI Core here)");
}

inline void PrintTimeStamp(uint32_t descId) {
    opkg_sim::log_line(opkg_sim::format("PrintTimeStamp descId %u at %lld ns", descId, (long long)GetSystemCycle()));
}

template <typename T> inline void DataCachePreload(const GlobalTensor<uint64_t>&, const T) {}
inline int64_t GetICachePreloadStatus() { return 0; }
inline void ICachePreLoad(const int64_t) {}

struct CheckLocalMemoryIAParam {
    CheckLocalMemoryIAParam() {}
    CheckLocalMemoryIAParam(const uint8_t enableBitIn, const uint32_t startAddrIn, const uint32_t endAddrIn,
                            const bool isScalarReadIn, const bool isScalarWriteIn, const bool isVectorReadIn,
                            const bool isVectorWriteIn, const bool isMteReadIn, const bool isMteWriteIn,
                            const bool isEnableIn)
        : enableBit(enableBitIn), startAddr(startAddrIn), endAddr(endAddrIn), isScalarRead(isScalarReadIn),
          isScalarWrite(isScalarWriteIn), isVectorRead(isVectorReadIn), isVectorWrite(isVectorWriteIn),
          isMteRead(isMteReadIn), isMteWrite(isMteWriteIn), isEnable(isEnableIn) {}
    uint8_t enableBit = 0;
    uint32_t startAddr = 0;
    uint32_t endAddr = 0;
    bool isScalarRead = false;
    bool isScalarWrite = false;
    bool isVectorRead = false;
    bool isVectorWrite = false;
    bool isMteRead = false;
    bool isMteWrite = false;
    bool isEnable = false;
};
// A hardware watchpoint on UB accesses; the sim's own UB checks already cover every access.
inline void CheckLocalMemoryIA(const CheckLocalMemoryIAParam&) {}

}  // namespace AscendC

#endif
