// AscendC::AscendCUtils: the devkit's static helpers that operator kernels call directly
// (impl/basic_api/kernel_utils_base.h): sizes of the C0 fractal and bit counts, and the vector
// mask register written as a bit pattern (SetMask(high, low)) or as the first `len` lanes of a
// repeat (SetMask(len)), with the devkit's arithmetic: 64 lanes set the low word only, a full
// repeat or 128 and more set both words.
#ifndef OPKG_SIM_KUTILS_H
#define OPKG_SIM_KUTILS_H

#include <cstdint>
#include "opkg_sim/basic_api/core/kcore.h"
#include "opkg_sim/basic_api/core/ktypes.h"
#include "opkg_sim/basic_api/core/kmisc.h"

namespace AscendC {

class AscendCUtils {
public:
    static int32_t GetBitSize(int32_t byteSize) { return byteSize * 8; }
    static int32_t GetC0Size() { return 32; }
    static int32_t GetC0Count(const int32_t dtypeSize, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        if (dtypeSize == 0) opkg_sim::fail(loc, "AscendCUtils::GetC0Count: dtypeSize can not be 0");
        return GetC0Size() / dtypeSize;
    }
    static int32_t GetDefaultBlockNum() { return int32_t(DEFAULT_BLK_NUM); }

    template <typename T, bool isSetMask = true>
    static void SetMask(const uint64_t& maskHigh, const uint64_t& maskLow) {
        if constexpr (isSetMask) SetVectorMask(maskHigh, maskLow);
    }
    template <typename T, bool isSetMask = true>
    static void SetMask(int32_t len) {
        if constexpr (!isSetMask) return;
        constexpr int32_t half_lanes = 64;   // one 64-bit mask word
        const int32_t per_repeat = int32_t(256 / sizeof(T));
        const uint64_t full = ~0ull;
        if (len == half_lanes) {
            SetMask<T>(0, full);
        } else if (len == per_repeat || len >= 2 * half_lanes) {
            SetMask<T>(full, full);
        } else {
            SetMask<T>(len > half_lanes ? (1ull << uint32_t(len - half_lanes)) - 1 : 0,
                       len > half_lanes ? full : (1ull << uint32_t(len)) - 1);
        }
    }
    template <typename T> static void SetMaskCount(opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        AscendC::SetMaskCount(loc);
    }
    template <typename T> static void SetMaskNorm() { AscendC::SetMaskNorm(); }
    static void ResetMask() { AscendC::ResetMask(); }
};

}  // namespace AscendC

#endif
