// opkg's CPU emulation of the Ascend C device API (namespace AscendC). Sources written for
// CANN's kernel_operator.h compile unchanged against it with g++ (see opkg/sim/flags.py).
#ifndef OPKG_SIM_KERNEL_OPERATOR_H
#define OPKG_SIM_KERNEL_OPERATOR_H

#include <cstdint>
#include <cstring>
#include <cmath>
#include "opkg_sim/kcore.h"
#include "opkg_sim/ktypes.h"
#include "opkg_sim/tensor.h"
#include "opkg_sim/pipe.h"
#include "opkg_sim/datacopy.h"
#include "opkg_sim/vector.h"
#include "opkg_sim/symbol_ops.h"
#include "opkg_sim/gather_sort.h"
#include "opkg_sim/sort.h"
#include "opkg_sim/reduce.h"
#include "opkg_sim/layout.h"
#include "opkg_sim/kmisc.h"
#include "opkg_sim/list_tensor.h"
#include "opkg_sim/tiling_slot.h"
#include "opkg_sim/vector_more.h"
#include "opkg_sim/trans5hd.h"
#include "opkg_sim/ksys.h"
#include "opkg_sim/vector_fused.h"
#include "opkg_sim/vector_cast_ops.h"
#include "opkg_sim/ibsync.h"
#include "opkg_sim/impl_layer.h"
#include "opkg_sim/cube.h"
#include "opkg_sim/cube_load3d.h"
#include "opkg_sim/scalar_builtins.h"
#include "opkg_sim/kstd.h"
#include "opkg_sim/kutils.h"
// The high-level libraries, as CANN's kernel_operator.h reaches them (lib/kernel_api.h).
#include "lib/kernel_api.h"

#endif
