// Written for opkg's tests, in the style of hicann/ops-nn's matmul host code: the tuning-bank
// key of common/inc/op_host/register/tuning_bank_key_registry.h (a struct made JSON with
// nlohmann's NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE, next to register/register_types.h's macros),
// matmul/mat_mul_v3/op_host/op_tiling/matmul_v3_base_tiling.cpp's `return ge::FAILED` and
// GetDeterministicLevel, and matmul/batch_mat_mul_v3's AscendC::tiling::TCubeTiling& bound to
// the ::TCubeTiling its tiling struct holds; and, linked with the sim's host runtime, the CANN
// library functions that ops-nn's common/inc/op_host headers declare (runtime_kb_api.h's
// QueryBank, register/tuning_tiling_registry.h's class factory, op_cache_tiling.h's GenTiling,
// TilingPrepareForOpCache, CheckSupportConditionQbmm and GenWqbmmTiling), declared here as
// those headers declare them (without NN_ENABLE_DLOPEN_LEGACY). Built and run as a program by
// tests/sim/test_sim_matmul_nn.py; prints what it found.
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <nlohmann/json.hpp>
#include "graph/ascend_string.h"
#include "register/register_types.h"
#include "exe_graph/runtime/tiling_context.h"
#include "exe_graph/runtime/tiling_parse_context.h"
#include "kernel_tiling/kernel_tiling.h"

namespace tuningtiling {
class TuningTilingDef {
public:
    virtual ~TuningTilingDef() = default;
    int tag = 7;
};
using TuningTilingDefConstructor = std::shared_ptr<TuningTilingDef> (*)();
class TuningTilingClassFactory {
public:
    static std::map<ge::AscendString, TuningTilingDefConstructor>& RegisterInfo();
    static void RegisterTilingData(const ge::AscendString& optype, TuningTilingDefConstructor const constructor);
    static std::shared_ptr<TuningTilingDef> CreateTilingDataInstance(const ge::AscendString& optype);
};
using TuningTilingDefPtr = std::shared_ptr<TuningTilingDef>;
}  // namespace tuningtiling
namespace RuntimeKb {
uint32_t QueryBank(const void* src, size_t src_len, const std::string& op_type, const std::string& soc_version,
                   uint32_t core_num, tuningtiling::TuningTilingDefPtr& tiling);
}
namespace optiling {
struct BatchmatmulCompileParas { bool bias_flag = false; };
struct BatchmatmulRunParas { int64_t m = 0; };
struct CacheTilingData { uint64_t tiling_id = 0; };
bool GenTiling(const std::string& op_type, const BatchmatmulCompileParas& compile_params,
               BatchmatmulRunParas& run_params, CacheTilingData& tiling, gert::TilingContext* context);
bool TilingPrepareForOpCache(gert::TilingContext* context);
bool TilingPrepareForOpCache(gert::TilingParseContext* context);
enum class QbmmType : uint32_t { Perchannel = 0, Pertoken = 1, KN = 2, Basic = 3, BasicLimit = 4 };
struct QuantBatchMatmulRunParas { uint64_t m_size = 0; };
struct WeightQuantBatchMatmulCacheTilingParas { uint64_t m = 0; };
struct WeightQuantBatchMatmulCacheTilingData { uint64_t mL1Size = 0; };
bool CheckSupportConditionQbmm(QbmmType type, QuantBatchMatmulRunParas& inputParams, uint64_t aicNum,
                               bool supportL0c2Out);
bool GenWqbmmTiling(const std::string& op_type, const WeightQuantBatchMatmulCacheTilingParas& compile_params,
                    WeightQuantBatchMatmulCacheTilingData& cacheTiling);
}

struct MatmulBankKey {
    int64_t m = 0;
    int64_t k = 0;
    int64_t n = 0;
    bool trans_b = false;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(MatmulBankKey, m, k, n, trans_b);

class FMK_FUNC_HOST_VISIBILITY Holder {
public:
    TCubeTiling matmulTiling;
};

static void SetBase(AscendC::tiling::TCubeTiling& t) { t.baseM = 128; t.baseN = 256; }

static ge::graphStatus Check(int64_t k) { return k > 0 ? ge::GRAPH_SUCCESS : ge::FAILED; }

int main() {
    static_assert(std::is_same<AscendC::tiling::TCubeTiling, ::TCubeTiling>::value, "one type");
    MatmulBankKey key{64, 512, 256, true};
    nlohmann::json j = key;
    std::string text = j.dump();
    MatmulBankKey back = nlohmann::json::parse(text).get<MatmulBankKey>();
    Holder h;
    SetBase(h.matmulTiling);
    gert::TilingContext ctx;
    tuningtiling::TuningTilingClassFactory::RegisterTilingData(
        "MatMulV3", [] { return std::make_shared<tuningtiling::TuningTilingDef>(); });
    auto made = tuningtiling::TuningTilingClassFactory::CreateTilingDataInstance("MatMulV3");
    auto none = tuningtiling::TuningTilingClassFactory::CreateTilingDataInstance("Other");
    tuningtiling::TuningTilingDefPtr banked = made;
    uint32_t kb = RuntimeKb::QueryBank(&key, sizeof(key), "MatMulV3", "Ascend910B1", 24, banked);
    optiling::BatchmatmulCompileParas cp;
    optiling::BatchmatmulRunParas rp;
    optiling::CacheTilingData ct;
    bool gen = optiling::GenTiling("MatMulV3", cp, rp, ct, &ctx);
    std::printf("%d,%d,%d,%d|", made ? made->tag : -1, none == nullptr, kb != 0 && banked == nullptr, int(gen));
    // the op cache prepared (TilingParse of MatMulV3 fails on false), no whitelist entry, no
    // weight-quant cache tiling
    gert::TilingParseContext parse;
    optiling::QuantBatchMatmulRunParas qp;
    optiling::WeightQuantBatchMatmulCacheTilingParas wp;
    optiling::WeightQuantBatchMatmulCacheTilingData wt;
    std::printf("%d,%d,%d,%d|", int(optiling::TilingPrepareForOpCache(&ctx)),
                int(optiling::TilingPrepareForOpCache(&parse)),
                int(optiling::CheckSupportConditionQbmm(optiling::QbmmType::Basic, qp, 24, true)),
                int(optiling::GenWqbmmTiling("wqbmm_custom", wp, wt)));
    std::printf("%s|%lld,%lld,%lld,%d|%d,%d|%u,%u|%d|%d\n", text.c_str(), (long long)back.m,
                (long long)back.k, (long long)back.n, int(back.trans_b), h.matmulTiling.baseM,
                h.matmulTiling.baseN, Check(0), Check(8), int(ge::SUCCESS),
                ctx.GetDeterministicLevel());
    return 0;
}
