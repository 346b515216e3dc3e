// The host's plain ::TCubeTiling, as CANN's kernel_tiling/kernel_tiling.h declares it beside the
// optiling classes: the same int32_t fields in the same order (the C layout the optiling class
// serialises to), so the host fills one from the other by bytes (host_matmul_tiling.h).
#ifndef OPKG_SIM_HOST_PLAIN_TILING_H
#define OPKG_SIM_HOST_PLAIN_TILING_H
#ifndef OPKG_SIM_KERNEL
#include <cstdint>
#include "lib/matmul/matmul_tilingdata.h"
#define OPKG_PLAIN_TILING_FIELD(name) int32_t name = 0;
struct TCubeTiling {
    OPKG_TCUBE_TILING_FIELDS(OPKG_PLAIN_TILING_FIELD)
};
#undef OPKG_PLAIN_TILING_FIELD
#endif
#endif
