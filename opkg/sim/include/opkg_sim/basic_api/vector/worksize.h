// Minimum sizes of the work buffers (workLocal / sharedTmpBuffer) that level-2 reductions need,
// by the formulas of the Ascend C ReduceSum / ReduceMax / ReduceMin documentation, and the check
// that fails a kernel passing less (the hardware would overwrite whatever follows the buffer).
#ifndef OPKG_SIM_WORKSIZE_H
#define OPKG_SIM_WORKSIZE_H

#include "opkg_sim/basic_api/core/datacopy.h"

namespace opkg_sim {

inline uint64_t div_ceil(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// First-round repeats of the count form: count / elementsPerRepeat, at least 1 (as documented);
// the level-0 forms use repeatTime itself.
template <class T> inline uint64_t first_repeats(int64_t count) {
    const uint64_t per_repeat = 256 / sizeof(T);
    const uint64_t r = uint64_t(count) / per_repeat;
    return r ? r : 1;
}

// ReduceMax / ReduceMin: every round writes (value, index) pairs, each round's output rounded up
// to whole 32-byte blocks; without the index the later rounds reuse the first round's space.
template <class T> inline uint64_t extreme_work_elems_for(uint64_t first, bool calIndex) {
    const uint64_t per_block = 32 / sizeof(T), per_repeat = 256 / sizeof(T);
    const uint64_t iter1 = first * 2;
    const uint64_t iter2_start = div_ceil(iter1, per_block) * per_block;
    if (!calIndex) return iter2_start;
    const uint64_t iter2 = div_ceil(iter1, per_repeat) * 2;
    const uint64_t iter2_end = div_ceil(iter2, per_block) * per_block;
    if (iter2 <= 2) return iter2_start + iter2_end;
    const uint64_t iter3 = div_ceil(iter2, per_repeat) * 2;
    return iter2_start + iter2_end + div_ceil(iter3, per_block) * per_block;
}

template <class T> inline uint64_t extreme_work_elems(int64_t count, bool calIndex) {
    return extreme_work_elems_for<T>(first_repeats<T>(count), calIndex);
}

// ReduceSum: one partial sum per first-round repeat, rounded up to whole blocks.
template <class T> inline uint64_t sum_work_elems_for(uint64_t first) {
    const uint64_t per_block = 32 / sizeof(T);
    return div_ceil(first, per_block) * per_block;
}

// The A2/A3 (__NPU_ARCH__ 2201) count form accumulates in a register and uses no work buffer.
template <class T> inline uint64_t sum_work_elems(int64_t count) {
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 2201
    (void)count;
    return 0;
#else
    return sum_work_elems_for<T>(first_repeats<T>(count));
#endif
}

// `what()` describes the call ("count 256 with calIndex"); it is built only for the message.
template <class T, class What>
inline void check_work(const AscendC::LocalTensor<T>& work, uint64_t need, What what, const char* op, SrcLoc loc) {
    note(loc);
    if (!work.ptr_) fail(loc, format("%s: the work buffer is a LocalTensor that was never allocated", op));
    if (uint64_t(work.size_) < need) {
        fail(loc, format("%s: the work buffer (workLocal/sharedTmpBuffer) holds %u %s elements (%llu bytes) but "
                         "%s needs at least %llu elements (%llu bytes); the hardware would write its partial results "
                         "past the buffer",
                         op, work.size_, type_name<T>(), (unsigned long long)(uint64_t(work.size_) * sizeof(T)),
                         what().c_str(), (unsigned long long)need, (unsigned long long)(need * sizeof(T))));
    }
    check_ub(work, need * sizeof(T), op, "workLocal", loc);
}

}  // namespace opkg_sim
#endif
