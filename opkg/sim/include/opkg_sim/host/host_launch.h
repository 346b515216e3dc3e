// What a generated host entry needs from the sim: tiling, InferShape and the registered OpDefs,
// each one call. The definitions (src/host_runtime.cpp: the emulated gert contexts, registries
// and JSON) are compiled once per toolchain and linked into every host library.
#ifndef OPKG_SIM_HOST_LAUNCH_H
#define OPKG_SIM_HOST_LAUNCH_H

#include <cstdint>
#include "graph/types.h"
#include "opkg_sim/runtime/abi.h"

namespace gert { class TilingContext; }

namespace opkg_sim {
using HostTilingFunc = ge::graphStatus (*)(gert::TilingContext*);

// `explicit_func` (the manifest's tiling.function) overrides the OpDef-registered function.
int host_tiling(const char* op_type, HostTilingFunc explicit_func, const OpkgTensorDesc* in, uint32_t n_in,
                const OpkgTensorDesc* out, uint32_t n_out, const OpkgAttrValue* attrs, uint32_t n_attrs,
                const OpkgPlatform* plat, uint8_t* tiling, uint64_t tiling_cap, OpkgTilingResult* res,
                OpkgError* err);
int host_infer_shape(const char* op_type, const OpkgTensorDesc* in, uint32_t n_in, const OpkgAttrValue* attrs,
                     uint32_t n_attrs, OpkgTensorDesc* out, uint32_t n_out, OpkgError* err);
// The OpDefs the library registered, as JSON (valid until the next call).
const char* host_prototypes();
}  // namespace opkg_sim
#endif
