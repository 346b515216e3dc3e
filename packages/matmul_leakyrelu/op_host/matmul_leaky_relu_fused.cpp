// MatmulLeakyReluFused host side: c [M, N] = leaky_relu(a [M, K] x b [K, N] + bias [N]). The
// kernel is mixed (AIC + 2 AIV per AI core): MultiCoreMatmulTiling splits M and N over the AIV
// cores, each of which asks the cube for its share block by block and applies LeakyRelu in UB.
#include <cstdio>
#include "matmul_leaky_relu_fused_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
constexpr int32_t BASE_N_MAX = 64;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& a = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& b = context->GetInputShape(1)->GetStorageShape();
    const gert::Shape& bias = context->GetInputShape(2)->GetStorageShape();
    if (a.GetDimNum() != 2 || b.GetDimNum() != 2 || a.GetDim(1) != b.GetDim(0)) {
        std::fprintf(stderr, "MatmulLeakyReluFused: a must be [M, K] and b [K, N]\n");
        return ge::GRAPH_FAILED;
    }
    const int64_t m = a.GetDim(0), k = a.GetDim(1), n = b.GetDim(1);
    if (bias.GetDimNum() != 1 || bias.GetDim(0) != n) {
        std::fprintf(stderr, "MatmulLeakyReluFused: bias must be [N] = [%lld]\n", static_cast<long long>(n));
        return ge::GRAPH_FAILED;
    }
    const float* slope = context->GetAttrs()->GetFloat(0);
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    // shares go to AIV cores: two per AI core (KERNEL_TYPE_MIX_AIC_1_2)
    const uint32_t aivCores = platform.GetCoreNumAiv();
    MultiCoreMatmulTiling mm(platform);
    mm.SetDim(static_cast<int32_t>(aivCores));
    mm.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    mm.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    mm.SetCType(TPosition::VECIN, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetShape(static_cast<int32_t>(m), static_cast<int32_t>(n), static_cast<int32_t>(k));
    mm.SetOrgShape(static_cast<int32_t>(m), static_cast<int32_t>(n), static_cast<int32_t>(k));
    mm.SetBias(true);
    mm.SetBufferSpace(-1, -1, -1);
    // base blocks at most 64 columns wide: four 128 x 64 float tiles (in and out, double-buffered)
    // take 128 KiB of the 192 KiB UB
    mm.SetFixSplit(-1, BASE_N_MAX, -1);
    MatmulLeakyReluFusedTilingData tiling;
    if (mm.GetTiling(tiling.cube) == -1) {
        return ge::GRAPH_FAILED;
    }
    // two tiles of baseM x baseN float in and out of UB, double-buffered
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint64_t ubNeed = 4ULL * tiling.cube.get_baseM() * tiling.cube.get_baseN() * sizeof(float);
    if (ubNeed > ubSize) {
        std::fprintf(stderr, "MatmulLeakyReluFused: the base block needs %llu bytes of UB, the SoC has %llu\n",
                     static_cast<unsigned long long>(ubNeed), static_cast<unsigned long long>(ubSize));
        return ge::GRAPH_FAILED;
    }
    tiling.set_negativeSlope(slope != nullptr ? *slope : 0.01f);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim((tiling.cube.get_usedCoreNum() + 1) / 2);
    size_t* workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] = platform.GetLibApiWorkSpaceSize();   // the Matmul client/server messages
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* a = context->GetInputShape(0);
    const gert::Shape* b = context->GetInputShape(1);
    gert::Shape* c = context->GetOutputShape(0);
    c->SetDimNum(2);
    c->SetDim(0, a->GetDim(0));
    c->SetDim(1, b->GetDim(1));
    return GRAPH_SUCCESS;
}

static graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, ge::DT_FLOAT);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class MatmulLeakyReluFused : public OpDef {
public:
    explicit MatmulLeakyReluFused(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.01f);
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(MatmulLeakyReluFused);
}  // namespace ops
