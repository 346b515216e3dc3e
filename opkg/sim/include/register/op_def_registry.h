// What msopgen-style op_host sources include: OpDef, the tiling/infer contexts, ge types.
#ifndef OPKG_SIM_REGISTER_OP_DEF_REGISTRY_H
#define OPKG_SIM_REGISTER_OP_DEF_REGISTRY_H
#include "register/op_def.h"
#include "register/tilingdata_base.h"
#include "exe_graph/runtime/tiling_context.h"
#include "exe_graph/runtime/infer_shape_context.h"
#include "graph/types.h"
#include "register/op_impl_registry.h"
#endif
