// The Ascend 950's Sort configuration (asc-devkit's Sort and GetSortMaxMinTmpSize pages), shared
// by the kernel's Sort (hl_sort.h) and the host's temporary-size query (host/hl_tiling.h).
#ifndef OPKG_SIM_ADV_API_SORT_SORT_CONFIG_H
#define OPKG_SIM_ADV_API_SORT_SORT_CONFIG_H

namespace AscendC {

enum class SortType { RADIX_SORT, MERGE_SORT };

struct SortConfig {
    SortType type = SortType::RADIX_SORT;
    bool isDescend = false;
    bool hasSrcIndex = false;    // host side only: which Sort form the kernel calls
    bool hasDstIndex = false;
};

constexpr SortConfig DEFAULT_SORT_CONFIG = {SortType::RADIX_SORT, false};

}  // namespace AscendC

#endif
