// opkg's CPU emulation of the Ascend C device API (namespace AscendC). Sources written for
// CANN's kernel_operator.h compile unchanged against it with g++ (see opkg/sim/flags.py).
#ifndef OPKG_SIM_KERNEL_OPERATOR_H
#define OPKG_SIM_KERNEL_OPERATOR_H

#include <cstdint>
#include <cstring>
#include <cmath>
#include "kernel_type.h"
#include "opkg_sim/basic_api/core/kcore.h"
#include "opkg_sim/basic_api/core/ktypes.h"
#include "opkg_sim/basic_api/core/tensor.h"
#include "opkg_sim/basic_api/core/pipe.h"
#include "opkg_sim/basic_api/core/datacopy.h"
#include "opkg_sim/basic_api/vector/vector.h"
#include "opkg_sim/basic_api/core/symbol_ops.h"
#include "opkg_sim/basic_api/vector/gather_sort.h"
#include "opkg_sim/basic_api/vector/sort.h"
#include "opkg_sim/basic_api/vector/reduce.h"
#include "opkg_sim/basic_api/vector/layout.h"
#include "opkg_sim/basic_api/core/kmisc.h"
#include "opkg_sim/basic_api/core/list_tensor.h"
#include "opkg_sim/basic_api/core/tiling_slot.h"
#include "opkg_sim/basic_api/vector/vector_more.h"
#include "opkg_sim/basic_api/vector/trans5hd.h"
#include "opkg_sim/basic_api/core/ksys.h"
#include "opkg_sim/basic_api/vector/vector_fused.h"
#include "opkg_sim/basic_api/vector/vector_cast_ops.h"
#include "opkg_sim/basic_api/core/ibsync.h"
#include "opkg_sim/basic_api/core/impl_layer.h"
#include "opkg_sim/basic_api/cube/cube.h"
#include "opkg_sim/basic_api/cube/cube_load3d.h"
#include "opkg_sim/basic_api/core/scalar_builtins.h"
#include "opkg_sim/basic_api/core/kstd.h"
#include "opkg_sim/basic_api/core/kutils.h"
#include "opkg_sim/basic_api/core/numeric_limits.h"
// The Ascend 950's register-based vector API (AscendC::Reg, AscendC::MicroAPI), which the devkit
// declares for that architecture only.
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510)
#include "opkg_sim/basic_api/reg/reg_compute.h"
#endif
// The high-level libraries, as CANN's kernel_operator.h reaches them (lib/kernel_api.h).
#include "lib/kernel_api.h"

#endif
