// The index library's ArithProgression (CANN lib/index): an arithmetic sequence built the way the
// documentation describes the device doing it, so float results round identically: the first
// 32-byte block as first + diff * i (in float), each later block of the first repeat as the
// block before plus diff * (elements per block), each later repeat as the repeat before plus
// diff * (elements per repeat), every step rounded to T.
#ifndef OPKG_SIM_HL_INDEX_H
#define OPKG_SIM_HL_INDEX_H

#include "opkg_sim/adv_api/hlapi.h"

namespace opkg_sim {

template <class T>
inline void run_arith_progression(const AscendC::LocalTensor<T>& dst, T first, T diff, int32_t count, SrcLoc loc) {
    static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value || std::is_same<T, int16_t>::value ||
                      std::is_same<T, int32_t>::value,
                  "ArithProgression supports half, float, int16_t and int32_t");
    const char* op = "ArithProgression";
    note(loc);
    if (count <= 0) fail(loc, format("%s: count %d must be positive", op, count));
    if (static_cast<float>(diff) < 0.0f) {
        fail(loc, format("%s: diffValue %g is negative; the sequence must not decrease", op, double(static_cast<float>(diff))));
    }
    check_count(dst, uint64_t(count), op, "dst", loc);
    const int32_t block = int32_t(32 / sizeof(T)), repeat = int32_t(256 / sizeof(T));
    auto add = [](T a, float d) { return static_cast<T>(static_cast<float>(a) + d); };
    T* d = dst.ptr_;
    for (int32_t i = 0; i < count; ++i) {
        if (i < block) {
            d[i] = static_cast<T>(static_cast<float>(first) + static_cast<float>(diff) * float(i));
        } else if (i < repeat) {
            d[i] = add(d[i - block], static_cast<float>(static_cast<T>(static_cast<float>(diff) * float(block))));
        } else {
            d[i] = add(d[i - repeat], static_cast<float>(static_cast<T>(static_cast<float>(diff) * float(repeat))));
        }
    }
    mark_written(d, uint64_t(count) * sizeof(T));
    count_vec_of<T>(op, count);
}

}  // namespace opkg_sim

namespace AscendC {

#if defined(__CCE_AICORE__) && (__CCE_AICORE__ == 200 || __CCE_AICORE__ == 220)
OPKG_HL_API((template <typename T>), ArithProgression, (const T firstValue, const T diffValue, const int32_t count),
            opkg_sim::run_arith_progression(dst, firstValue, diffValue, count, loc))
#endif

}  // namespace AscendC
#endif
