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

// CANN's tuning library, which ops repositories' host code calls through their own headers
// (ops-nn common/inc/op_host/register/tuning_tiling_registry.h, runtime_kb_api.h): the registry
// of tuned-tiling classes, and the runtime knowledge bank's query. The sim has no knowledge bank
// (AOE's tuned tilings): every query answers "no entry", and the tiling computes its own, as it
// does on a device whose bank has none for the shape.
#include <map>
#include <memory>
#include "graph/ascend_string.h"
namespace tuningtiling {
class TuningTilingDef;
using TuningTilingDefConstructor = std::shared_ptr<TuningTilingDef> (*)();
class TuningTilingClassFactory {
public:
    static std::map<ge::AscendString, TuningTilingDefConstructor>& RegisterInfo();
    static void RegisterTilingData(const ge::AscendString& optype, TuningTilingDefConstructor const constructor);
    static std::shared_ptr<TuningTilingDef> CreateTilingDataInstance(const ge::AscendString& optype);
};
std::map<ge::AscendString, TuningTilingDefConstructor>& TuningTilingClassFactory::RegisterInfo() {
    static std::map<ge::AscendString, TuningTilingDefConstructor> classes;
    return classes;
}
void TuningTilingClassFactory::RegisterTilingData(const ge::AscendString& optype,
                                                  TuningTilingDefConstructor const constructor) {
    RegisterInfo()[optype] = constructor;
}
std::shared_ptr<TuningTilingDef> TuningTilingClassFactory::CreateTilingDataInstance(const ge::AscendString& optype) {
    auto it = RegisterInfo().find(optype);
    return it == RegisterInfo().end() || it->second == nullptr ? nullptr : it->second();
}
}  // namespace tuningtiling

namespace RuntimeKb {
constexpr uint32_t kNoBankEntry = 1;   // any non-zero status: the callers fall back alike
uint32_t QueryBank(const void*, size_t, const std::string&, const std::string&, uint32_t,
                   std::shared_ptr<tuningtiling::TuningTilingDef>& tiling) {
    tiling = nullptr;
    return kNoBankEntry;
}
}  // namespace RuntimeKb

// CANN's legacy cube tiling library (libophost_comm_legacy: the TBE matmul "cache tiling", its
// op cache, the quant whitelists), which ops-nn's common/inc/op_host op_cache_tiling.h and
// tbe_tiling_api.h declare in optiling for builds against the whole CANN package (without
// NN_ENABLE_DLOPEN_LEGACY; with it, ops-nn's common/src/op_host wrappers dlopen that same
// library by the installed path of the host library, which the sim's is not). Its searches are
// not public: the sim has none, and answers as the library does for a shape it holds nothing
// for (no cache tiling, no whitelist entry: false, a warning where the caller needs a tiling);
// the callers' other paths compute the tiling. Preparing the op cache succeeds: the sim keeps
// no cache, so there is nothing to prepare (MatMulV3's TilingParse fails on false).
namespace gert { class TilingContext; class TilingParseContext; }
namespace optiling {
struct BatchmatmulCompileParas;
struct BatchmatmulRunParas;
struct CacheTilingData;
struct QuantBatchMatmulRunParas;
struct WeightQuantBatchMatmulCacheTilingParas;
struct WeightQuantBatchMatmulCacheTilingData;
struct Conv3dBackpropV2TBETilingData;
enum class QbmmType : uint32_t;
enum OpTypeV2 : size_t;
bool TilingPrepareForOpCache(gert::TilingContext*) { return true; }
bool TilingPrepareForOpCache(gert::TilingParseContext*) { return true; }
bool GenTiling(const std::string& op_type, const BatchmatmulCompileParas&, BatchmatmulRunParas&, CacheTilingData&,
               gert::TilingContext*) {
    AlogRecord(0, 0, 2, "[%s] GenTiling: CANN's legacy cache tiling is not in the sim; no tiling from it",
               op_type.c_str());
    return false;
}
bool CheckSupportConditionQbmm(QbmmType, QuantBatchMatmulRunParas&, uint64_t, bool) { return false; }
bool GenWqbmmTiling(const std::string& op_type, const WeightQuantBatchMatmulCacheTilingParas&,
                    WeightQuantBatchMatmulCacheTilingData&) {
    AlogRecord(0, 0, 2, "[%s] GenWqbmmTiling: CANN's legacy cache tiling is not in the sim; no tiling from it",
               op_type.c_str());
    return false;
}
bool GetTbeTiling(gert::TilingContext*, Conv3dBackpropV2TBETilingData&, const OpTypeV2) {
    AlogRecord(0, 0, 2, "GetTbeTiling: CANN's legacy TBE convolution tiling is not in the sim; no tiling from it");
    return false;
}
}  // namespace optiling

// The debug-string helpers CANN's operator libraries export in namespace ops, which host code
// declares itself and calls in log lines (cann-ops' mat_mul_v3_proto.cpp declares
// ops::ToString(const gert::Shape*) and others without defining them). Shapes print as the base
// library's Ops::Base::ToString does, "[2, 3]". Weak: an operator that defines its own wins.
#include <sstream>
#include <vector>
#include "exe_graph/runtime/shape.h"
#include "graph/types.h"
namespace ops {
__attribute__((weak)) std::string ToString(const std::vector<int64_t>& dims) {
    std::ostringstream out;
    out << "[";
    for (size_t i = 0; i < dims.size(); ++i) out << (i ? ", " : "") << dims[i];
    out << "]";
    return out.str();
}
__attribute__((weak)) std::string ToString(const gert::Shape& shape) {
    std::vector<int64_t> dims;
    for (size_t i = 0; i < shape.GetDimNum(); ++i) dims.push_back(shape.GetDim(i));
    return ToString(dims);
}
__attribute__((weak)) std::string ToString(const gert::Shape* shape) {
    return shape == nullptr ? std::string("nullptr") : ToString(*shape);
}
__attribute__((weak)) std::string ToString(const std::vector<gert::Shape>& shapes) {
    std::string out = "[";
    for (size_t i = 0; i < shapes.size(); ++i) out += (i ? ", " : "") + ToString(shapes[i]);
    return out + "]";
}
__attribute__((weak)) std::string ToString(const ge::DataType& type) { return ge::DataTypeName(type); }
__attribute__((weak)) std::string ToString(const ge::Format& format) { return std::to_string(static_cast<int>(format)); }
}  // namespace ops
