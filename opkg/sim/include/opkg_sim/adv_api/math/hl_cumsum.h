// CumSum (CANN lib/math/cumsum.h): the running sum of an [outter, inner] tensor along its last
// axis (isLastAxis) or its first, accumulated in float from the first element and rounded once
// per output; lastRowTensor receives dst's last row when outputLastRow. docs/api.md has the model.
#ifndef OPKG_SIM_HL_CUMSUM_H
#define OPKG_SIM_HL_CUMSUM_H

#include "opkg_sim/adv_api/hlapi.h"

namespace AscendC {

struct CumSumConfig {
    bool isLastAxis{true};
    bool isReuseSource{false};
    bool outputLastRow{false};
};

struct CumSumInfo {
    uint32_t outter{0};
    uint32_t inner{0};   // elements per row, 32-byte aligned
};

constexpr CumSumConfig defaultCumSumConfig = {true, false, true};

}  // namespace AscendC

namespace opkg_sim {

template <class T>
inline void run_cumsum(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& last_row,
                       const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>* tmp,
                       const AscendC::CumSumInfo& info, bool last_axis, bool output_last_row, SrcLoc loc) {
    static_assert(is_half_or_float<T>::value, "CumSum supports half and float");
    const char* op = "CumSum";
    note(loc);
    if (!info.outter || !info.inner || (uint64_t(info.inner) * sizeof(T)) % 32) {
        fail(loc, format("%s: outter %u, inner %u: both must be positive and inner a whole number of 32-byte "
                         "blocks of %s", op, info.outter, info.inner, type_name<T>()));
    }
    if (tmp) check_shared_tmp(*tmp, 0, op, loc);
    const uint64_t count = uint64_t(info.outter) * info.inner;
    check_count(dst, count, op, "dst", loc);
    check_count(src, count, op, "src", loc);
    check_read(src.ptr_, count * sizeof(T), op, "src", loc);
    if (output_last_row) check_count(last_row, info.inner, op, "lastRowTensor", loc);
    count_vec_of<T>(op, int64_t(count));
    std::vector<T> out(count);
    const uint64_t lines = last_axis ? info.outter : info.inner, len = last_axis ? info.inner : info.outter;
    for (uint64_t l = 0; l < lines; ++l) {
        float acc = 0.0f;
        for (uint64_t i = 0; i < len; ++i) {
            const uint64_t at = last_axis ? l * info.inner + i : i * info.inner + l;
            acc += static_cast<float>(src.ptr_[at]);
            out[at] = static_cast<T>(acc);
        }
    }
    std::copy(out.begin(), out.end(), dst.ptr_);
    mark_written(dst.ptr_, count * sizeof(T));
    if (output_last_row) {
        std::copy(out.end() - info.inner, out.end(), last_row.ptr_);
        mark_written(last_row.ptr_, uint64_t(info.inner) * sizeof(T));
    }
}

}  // namespace opkg_sim

namespace AscendC {

#if defined(__CCE_AICORE__) && __CCE_AICORE__ >= 200
#define OPKG_HL_CUMSUM_TPL (template <typename T, const CumSumConfig& config = defaultCumSumConfig>)
OPKG_HL_API(OPKG_HL_CUMSUM_TPL, CumSum, (const LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
            const LocalTensor<uint8_t>& sharedTmpBuffer, const CumSumInfo& cumSumInfo),
            opkg_sim::run_cumsum(dst, lastRowTensor, srcTensor, &sharedTmpBuffer, cumSumInfo, config.isLastAxis,
                                 config.outputLastRow, loc))
OPKG_HL_API(OPKG_HL_CUMSUM_TPL, CumSum, (const LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
            const CumSumInfo& cumSumInfo),
            opkg_sim::run_cumsum(dst, lastRowTensor, srcTensor, nullptr, cumSumInfo, config.isLastAxis,
                                 config.outputLastRow, loc))
#undef OPKG_HL_CUMSUM_TPL
#endif

}  // namespace AscendC
#endif
