// MatmulBasicCustom host side: c [M, N] = a [M, K] x b [K, N] (+ bias [N], optional). The output is cut into base tiles
// of baseM x baseN, handed to the cube cores round-robin; each tile runs K in steps of baseK.
#include <algorithm>
#include <cstdio>
#include "matmul_basic_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// A tile's operands fit every supported SoC's L0 with two buffers each (L0A/L0B 64 KiB, L0C
// 128 KiB): A2 128 x 64 and B2 64 x 128 half are 16 KiB, the CO1 tile 128 x 128 float 64 KiB.
constexpr uint32_t BASE_M = 128;
constexpr uint32_t BASE_N = 128;
constexpr uint32_t BASE_K = 64;
constexpr uint32_t BUFFER_NUM = 2;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& a = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& b = context->GetInputShape(1)->GetStorageShape();
    if (a.GetDimNum() != 2 || b.GetDimNum() != 2 || a.GetDim(1) != b.GetDim(0)) {
        std::fprintf(stderr, "MatmulBasicCustom: a must be [M, K] and b [K, N]\n");
        return ge::GRAPH_FAILED;
    }
    const int64_t m = a.GetDim(0), k = a.GetDim(1), n = b.GetDim(1);
    // Nd2Nz takes row lengths and strides as 16-bit fields
    if (m <= 0 || n <= 0 || k <= 0 || m > 65535 || n > 65535 || k > 65535) {
        std::fprintf(stderr, "MatmulBasicCustom: every dimension must be between 1 and 65535\n");
        return ge::GRAPH_FAILED;
    }
    // the bias is optional: absent, Mmad starts every tile from zero
    const gert::StorageShape* bias = context->GetOptionalInputShape(2);
    if (bias != nullptr && (bias->GetStorageShape().GetDimNum() != 1 || bias->GetStorageShape().GetDim(0) != n)) {
        std::fprintf(stderr, "MatmulBasicCustom: bias must be [N] = [%lld]\n", static_cast<long long>(n));
        return ge::GRAPH_FAILED;
    }
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t l1Size = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::L1, l1Size);
    const uint64_t l1Need = (BUFFER_NUM * (uint64_t(BASE_M) * BASE_K + uint64_t(BASE_K) * BASE_N) + BASE_N) * sizeof(uint16_t);
    if (l1Need > l1Size) {
        std::fprintf(stderr, "MatmulBasicCustom: the tiles need %llu bytes of L1, the SoC has %llu\n",
                     static_cast<unsigned long long>(l1Need), static_cast<unsigned long long>(l1Size));
        return ge::GRAPH_FAILED;
    }
    const uint32_t tilesM = static_cast<uint32_t>((m + BASE_M - 1) / BASE_M);
    const uint32_t tilesN = static_cast<uint32_t>((n + BASE_N - 1) / BASE_N);
    const uint32_t cores = std::max<uint32_t>(platform.GetCoreNumAic(), 1);

    MatmulBasicCustomTilingData tiling;
    tiling.set_m(static_cast<uint32_t>(m));
    tiling.set_n(static_cast<uint32_t>(n));
    tiling.set_k(static_cast<uint32_t>(k));
    tiling.set_baseM(BASE_M);
    tiling.set_baseN(BASE_N);
    tiling.set_baseK(BASE_K);
    tiling.set_tilesM(tilesM);
    tiling.set_tilesN(tilesN);
    tiling.set_hasBias(bias != nullptr ? 1 : 0);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(std::min(cores, tilesM * tilesN));
    size_t* workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] = 0;
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
class MatmulBasicCustom : public OpDef {
public:
    explicit MatmulBasicCustom(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(OPTIONAL).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b").AddConfig("ascend310b");
    }
};
OP_ADD(MatmulBasicCustom);
}  // namespace ops
