// The sort library's TopK (CANN lib/sort/topk.h): per row of a [outter, inner] source (n valid
// elements, inner the 32-element multiple), the k largest (or smallest) values and their indices,
// in order. CANN's kernel sorts with Sort32 and MrgSort, both stable, after negating the data for
// the smallest: equal values come out lower index first either way, and the values are the
// source's own (negating twice is exact). NaN has no documented place; the sim ranks it above
// +inf (below -inf for the smallest). Normal mode writes rows of k rounded up to 32 bytes (of T for
// the values, of int32 for the indices); Small mode (inner 32) writes outter x k packed. A row
// whose finishLocal is true gets every index set to n.
#ifndef OPKG_SIM_HL_TOPK_H
#define OPKG_SIM_HL_TOPK_H

#include <algorithm>
#include <cmath>
#include <vector>
#include "opkg_sim/adv_api/hlapi.h"
#include "lib/sort/topk_tilingdata.h"

// The small-number constants the devkit's TopK implementation declares at global scope in an
// anonymous namespace (its topk_common_utils.h, for the architectures it lists: 2002, 2201 (the
// 910B), 3510 (the Ascend 950), 5102, 3003, 3113): every kernel that includes kernel_operator.h
// sees them, and ops-nn's index kernels use them unqualified (the 950's scatter_add_with_sorted,
// scatter_nd_add, unsorted_segment_sum: TWO, THREE, FOUR; the 910B's top_k_top_p_sample:
// SIXTEEN). A kernel's own constant in its namespace hides them.
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 2002 || __NPU_ARCH__ == 2201 || __NPU_ARCH__ == 3510 || \
                              __NPU_ARCH__ == 5102 || __NPU_ARCH__ == 3003 || __NPU_ARCH__ == 3113)
namespace {
constexpr uint32_t TWO = 2;
constexpr uint32_t THREE = 3;
constexpr uint32_t FOUR = 4;
constexpr uint32_t FIVE = 5;
constexpr uint32_t SIX = 6;
constexpr uint32_t SEVEN = 7;
constexpr uint32_t EIGHT = 8;
constexpr uint32_t NINE = 9;
constexpr uint32_t TWELVE = 12;
constexpr uint32_t SIXTEEN = 16;
constexpr uint32_t THIRTY_TWO = 32;
constexpr uint32_t FORTYEIGHT = 48;
}  // namespace
#endif

namespace AscendC {
using TopkTiling = optiling::TopkTiling;
struct TopKInfo {
    int32_t outter = 1;
    int32_t inner;   // n rounded up to 32 elements
    int32_t n;       // the valid length of a row
};
}  // namespace AscendC

namespace opkg_sim {

// The sort key: NaN above +inf, so the order is total.
inline bool topk_before(double a, double b, bool largest) {
    const bool na = std::isnan(a), nb = std::isnan(b);
    if (na || nb) return largest ? (na && !nb) : (nb && !na);
    return largest ? a > b : a < b;
}

template <class T, bool init_index, bool has_finish, bool small>
inline void topk(const AscendC::LocalTensor<T>& dst_value, const AscendC::LocalTensor<int32_t>& dst_index,
                 const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<int32_t>& src_index,
                 const AscendC::LocalTensor<bool>& finish, const AscendC::LocalTensor<uint8_t>* tmp, int32_t k,
                 const AscendC::TopKInfo& info, bool largest, SrcLoc loc) {
    static_assert(is_half_or_float<T>::value, "TopK sorts half or float");
    static_assert(!(small && has_finish), "TopK: Small mode (TOPK_NSMALL) takes isHasfinish false only");
    const char* op = "TopK";
    note(loc);
    const int64_t outter = info.outter, inner = info.inner, n = info.n;
    if (outter < 1 || inner < 32 || inner % 32 || n < 1 || n > inner || (small && inner != 32)) {
        fail(loc, format("%s: TopKInfo {outter %d, inner %d, n %d}: outter must be at least 1, inner a non-zero "
                         "multiple of 32 (exactly 32 in Small mode) and n in [1, inner]", op, info.outter,
                         info.inner, info.n));
    }
    if (k < 1 || k > inner) fail(loc, format("%s: k %d must be in [1, inner %d]", op, k, info.inner));
    check_tmp(tmp, topk_tmp_bytes(uint64_t(inner), uint64_t(outter), small), op, loc);
    const uint64_t kv = small ? uint64_t(k) : (uint64_t(k) + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
    const uint64_t ki = small ? uint64_t(k) : (uint64_t(k) + 7) / 8 * 8;
    check_count(src, uint64_t(outter * inner), op, "srcLocal", loc);
    check_count(dst_value, (uint64_t(outter) - 1) * kv + uint64_t(k), op, "dstValueLocal", loc);
    check_count(dst_index, (uint64_t(outter) - 1) * ki + uint64_t(k), op, "dstIndexLocal", loc);
    check_read(src.ptr_, uint64_t(outter * inner) * sizeof(T), op, "srcLocal", loc);
    const uint64_t idx_len = init_index ? uint64_t(small ? outter * inner : inner) : 0;
    if (init_index) {
        check_count(src_index, idx_len, op, "srcIndexLocal", loc);
        check_read(src_index.ptr_, idx_len * 4, op, "srcIndexLocal", loc);
    }
    if (has_finish) {
        check_count(finish, uint64_t(outter), op, "finishLocal", loc);
        check_read(finish.ptr_, uint64_t(outter), op, "finishLocal", loc);
    }
    count_vec_of<T>(op, outter * inner);
    std::vector<uint64_t> order(static_cast<size_t>(inner));
    for (int64_t r = 0; r < outter; ++r) {
        const T* row = src.ptr_ + r * inner;
        for (uint64_t j = 0; j < order.size(); ++j) order[j] = j;
        std::stable_sort(order.begin(), order.end(), [&](uint64_t a, uint64_t b) {
            return topk_before(widen(row[a]), widen(row[b]), largest);
        });
        const bool done = has_finish && finish.ptr_[r];
        for (int64_t j = 0; j < k; ++j) {
            const uint64_t at = order[uint64_t(j)];
            dst_value.ptr_[uint64_t(r) * kv + uint64_t(j)] = row[at];
            int32_t index = int32_t(at);
            if (init_index) index = src_index.ptr_[(small ? uint64_t(r) * inner : 0) + at];
            dst_index.ptr_[uint64_t(r) * ki + uint64_t(j)] = done ? int32_t(n) : index;
        }
        mark_written(dst_value.ptr_ + uint64_t(r) * kv, uint64_t(k) * sizeof(T));
        mark_written(dst_index.ptr_ + uint64_t(r) * ki, uint64_t(k) * 4);
    }
}

}  // namespace opkg_sim

namespace AscendC {

// CANN implements TopK for 220 and 200 only.
#if defined(__CCE_AICORE__) && (__CCE_AICORE__ == 200 || __CCE_AICORE__ == 220)
#define OPKG_HL_LOC opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL>
inline void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
                 const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
                 const LocalTensor<bool>& finishLocal, const LocalTensor<uint8_t>& tmpLocal, const int32_t k,
                 const TopkTiling& tilling, const TopKInfo& topKInfo, const bool isLargest = true, OPKG_HL_LOC) {
    (void)tilling;
    opkg_sim::topk<T, isInitIndex, isHasfinish, topkMode == TopKMode::TOPK_NSMALL>(
        dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal, finishLocal, &tmpLocal, k, topKInfo, isLargest, loc);
}
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL>
inline void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
                 const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
                 const LocalTensor<bool>& finishLocal, const int32_t k, const TopkTiling& tilling,
                 const TopKInfo& topKInfo, const bool isLargest = true, OPKG_HL_LOC) {
    (void)tilling;
    opkg_sim::topk<T, isInitIndex, isHasfinish, topkMode == TopKMode::TOPK_NSMALL>(
        dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal, finishLocal, nullptr, k, topKInfo, isLargest, loc);
}
#undef OPKG_HL_LOC
#endif

}  // namespace AscendC
#endif
