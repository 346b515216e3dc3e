// Written for opkg's tests, in the style of hicann/ops-nn's matmul host code: the tuning-bank
// key of common/inc/op_host/register/tuning_bank_key_registry.h (a struct made JSON with
// nlohmann's NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE, next to register/register_types.h's macros),
// matmul/mat_mul_v3/op_host/op_tiling/matmul_v3_base_tiling.cpp's `return ge::FAILED` and
// GetDeterministicLevel, and matmul/batch_mat_mul_v3's AscendC::tiling::TCubeTiling& bound to
// the ::TCubeTiling its tiling struct holds. Built and run as a program by
// tests/sim/test_sim_matmul_nn.py; prints what it found.
#include <cstdio>
#include <string>
#include <type_traits>
#include <nlohmann/json.hpp>
#include "register/register_types.h"
#include "exe_graph/runtime/tiling_context.h"
#include "kernel_tiling/kernel_tiling.h"

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
    std::printf("%s|%lld,%lld,%lld,%d|%d,%d|%u,%u|%d|%d\n", text.c_str(), (long long)back.m,
                (long long)back.k, (long long)back.n, int(back.trans_b), h.matmulTiling.baseM,
                h.matmulTiling.baseN, Check(0), Check(8), int(ge::SUCCESS),
                ctx.GetDeterministicLevel());
    return 0;
}
