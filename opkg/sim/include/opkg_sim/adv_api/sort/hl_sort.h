// The Ascend 950's Sort with a SortConfig (asc-devkit's Sort page, "带SortConfig" forms): a stable
// sort of calCount values ascending (descending with config.isDescend), with the values' source
// positions (uint32) or the caller's source indices carried along. Radix and merge sort are both
// stable, so both give this order; merge sort takes half and float only, in multiples of 32.
#ifndef OPKG_SIM_ADV_API_SORT_HL_SORT_H
#define OPKG_SIM_ADV_API_SORT_HL_SORT_H

#include <algorithm>
#include <numeric>
#include <vector>
#include "opkg_sim/adv_api/hlapi.h"
#include "opkg_sim/adv_api/sort/sort_config.h"

namespace opkg_sim {

template <class T, class U>
inline void config_sort(const AscendC::SortConfig& config, const AscendC::LocalTensor<T>& dst,
                        const AscendC::LocalTensor<U>* dst_index, const AscendC::LocalTensor<T>& src,
                        const AscendC::LocalTensor<U>* src_index, const AscendC::LocalTensor<uint8_t>* tmp,
                        uint32_t n, SrcLoc loc) {
    if (config.type == AscendC::SortType::MERGE_SORT) {
        if (!(std::is_same<T, half>::value || std::is_same<T, float>::value)) {
            fail(loc, "Sort with SortType::MERGE_SORT sorts half or float values only (RADIX_SORT takes the others)");
        }
        if (n % 32 != 0) {
            fail(loc, format("Sort with SortType::MERGE_SORT: calCount %u is not a multiple of 32; pad the data "
                             "to a multiple of 32 first", n));
        }
    }
    check_ub(src, uint64_t(n) * sizeof(T), "Sort", "srcTensor", loc);
    check_ub(dst, uint64_t(n) * sizeof(T), "Sort", "dstTensor", loc);
    check_read(src.ptr_, uint64_t(n) * sizeof(T), "Sort", "srcTensor", loc);
    if (src_index) {
        check_ub(*src_index, uint64_t(n) * sizeof(U), "Sort", "srcIndexTensor", loc);
        check_read(src_index->ptr_, uint64_t(n) * sizeof(U), "Sort", "srcIndexTensor", loc);
    }
    if (dst_index) check_ub(*dst_index, uint64_t(n) * sizeof(U), "Sort", "dstIndexTensor", loc);
    if (tmp) check_ub(*tmp, 0, "Sort", "sharedTmpBuffer", loc);
    const uint8_t* s0 = reinterpret_cast<const uint8_t*>(src.ptr_);
    const uint8_t* d0 = reinterpret_cast<const uint8_t*>(dst.ptr_);
    if (s0 < d0 + uint64_t(n) * sizeof(T) && d0 < s0 + uint64_t(n) * sizeof(T)) {
        fail(loc, "Sort: srcTensor and dstTensor overlap; the API does not sort in place");
    }
    count_vec("Sort", n, uint64_t(n) * sizeof(T), 1);
    using C = calc_t<T>;
    std::vector<T> values(src.ptr_, src.ptr_ + n);
    std::vector<U> carried(n);
    for (uint32_t i = 0; i < n; ++i) carried[i] = src_index ? src_index->ptr_[i] : U(i);
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    if (config.isDescend) {
        std::stable_sort(order.begin(), order.end(),
                         [&](uint32_t a, uint32_t b) { return static_cast<C>(values[a]) > static_cast<C>(values[b]); });
    } else {
        std::stable_sort(order.begin(), order.end(),
                         [&](uint32_t a, uint32_t b) { return static_cast<C>(values[a]) < static_cast<C>(values[b]); });
    }
    for (uint32_t i = 0; i < n; ++i) dst.ptr_[i] = values[order[i]];
    mark_written(dst.ptr_, uint64_t(n) * sizeof(T));
    if (dst_index) {
        for (uint32_t i = 0; i < n; ++i) dst_index->ptr_[i] = carried[order[i]];
        mark_written(dst_index->ptr_, uint64_t(n) * sizeof(U));
    }
}

}  // namespace opkg_sim

namespace AscendC {

template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                 const uint32_t calCount, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::config_sort<T, uint32_t>(config, dstTensor, nullptr, srcTensor, nullptr, &sharedTmpBuffer, calCount, loc);
}
template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount,
                 opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::config_sort<T, uint32_t>(config, dstTensor, nullptr, srcTensor, nullptr, nullptr, calCount, loc);
}
template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T>& dstTensor, LocalTensor<uint32_t>& dstIndexTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
                 opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::config_sort<T, uint32_t>(config, dstTensor, &dstIndexTensor, srcTensor, nullptr, &sharedTmpBuffer,
                                       calCount, loc);
}
template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T>& dstTensor, LocalTensor<uint32_t>& dstIndexTensor, const LocalTensor<T>& srcTensor,
                 const uint32_t calCount, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::config_sort<T, uint32_t>(config, dstTensor, &dstIndexTensor, srcTensor, nullptr, nullptr, calCount, loc);
}
template <typename T, typename U, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T>& dstTensor, LocalTensor<U>& dstIndexTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<U>& srcIndexTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                 const uint32_t calCount, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::config_sort<T, U>(config, dstTensor, &dstIndexTensor, srcTensor, &srcIndexTensor, &sharedTmpBuffer,
                                calCount, loc);
}
template <typename T, typename U, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T>& dstTensor, LocalTensor<U>& dstIndexTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<U>& srcIndexTensor, const uint32_t calCount,
                 opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::config_sort<T, U>(config, dstTensor, &dstIndexTensor, srcTensor, &srcIndexTensor, nullptr, calCount, loc);
}

}  // namespace AscendC

#endif
