// The host's plain ::TCubeTiling, as CANN's kernel_tiling/kernel_tiling.h declares it beside the
// optiling classes: the same int32_t fields in the same order (the C layout the optiling class
// serialises to), so the host fills one from the other by bytes (host_matmul_tiling.h). Current
// CANN generates it in namespace AscendC::tiling and exports the legacy name at global scope
// (asc-devkit's gen_kernel_tiling_data_def.py): ops-nn's batch matmul tiling names
// AscendC::tiling::TCubeTiling, its tiling structs the global one; both are the same type.
#ifndef OPKG_SIM_HOST_PLAIN_TILING_H
#define OPKG_SIM_HOST_PLAIN_TILING_H
#ifndef OPKG_SIM_KERNEL
#include <cstdint>
#include "lib/matmul/matmul_tilingdata.h"
#define OPKG_PLAIN_TILING_FIELD(name) int32_t name = 0;
namespace AscendC {
namespace tiling {
struct TCubeTiling {
    OPKG_TCUBE_TILING_FIELDS(OPKG_PLAIN_TILING_FIELD)
};
}  // namespace tiling
}  // namespace AscendC
using AscendC::tiling::TCubeTiling;
#undef OPKG_PLAIN_TILING_FIELD
#endif
#endif
