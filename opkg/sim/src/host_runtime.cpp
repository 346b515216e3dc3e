// The sim's host runtime as one object per toolchain (opkg/sim/flags.py `host_flags`): every
// host library links it beside the package's tiling sources and its generated entry.
#include <string>
#include "opkg_sim/host/host_launch.h"
#include "opkg_sim/host/host_runtime.h"
#include "base/alog_pub.h"
#include "dlog_pub.h"

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

// CANN's log library (dlog_pub.h), which the base library's log/log.h calls: the same threshold
// and output as base/alog_pub.h. The module id's upper bits are flags; the level alone decides.
extern "C" int32_t CheckLogLevel(int32_t moduleId, int32_t logLevel) {
    return AlogCheckDebugLevel(static_cast<uint32_t>(moduleId), logLevel);
}

extern "C" void DlogRecord(int32_t, int32_t level, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    opkg_sim::vlog(level, fmt, ap);
    va_end(ap);
}
