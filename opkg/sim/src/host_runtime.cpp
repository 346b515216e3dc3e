// The sim's host runtime as one object per toolchain (opkg/sim/flags.py `host_flags`): every
// host library links it beside the package's tiling sources and its generated entry.
#include <string>
#include "opkg_sim/host/host_launch.h"
#include "opkg_sim/host/host_runtime.h"

namespace opkg_sim {

int host_tiling(const char* op_type, HostTilingFunc explicit_func, const OpkgTensorDesc* in, uint32_t n_in,
                const OpkgTensorDesc* out, uint32_t n_out, const OpkgAttrValue* attrs, uint32_t n_attrs,
                const OpkgPlatform* plat, uint8_t* tiling, uint64_t tiling_cap, OpkgTilingResult* res,
                OpkgError* err) {
    return run_tiling(op_type, explicit_func, in, n_in, out, n_out, attrs, n_attrs, plat, tiling, tiling_cap, res,
                      err);
}

int host_infer_shape(const char* op_type, const OpkgTensorDesc* in, uint32_t n_in, const OpkgAttrValue* attrs,
                     uint32_t n_attrs, OpkgTensorDesc* out, uint32_t n_out, OpkgError* err) {
    return run_infer_shape(op_type, in, n_in, attrs, n_attrs, out, n_out, err);
}

const char* host_prototypes() {
    static std::string text;
    text = prototypes_json();
    return text.c_str();
}

}  // namespace opkg_sim
