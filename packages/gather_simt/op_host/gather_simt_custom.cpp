// y = x[indices]: one block per THREADS * 8 indices, at most the SoC's vector cores.
#include "gather_simt_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t PER_BLOCK = 1024 * 8;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const uint32_t n = static_cast<uint32_t>(context->GetInputShape(1)->GetStorageShape().GetShapeSize());
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv();
    uint32_t blocks = (n + PER_BLOCK - 1) / PER_BLOCK;
    blocks = blocks == 0 ? 1 : (blocks > cores ? cores : blocks);
    GatherSimtCustomTilingData tiling;
    tiling.set_n(n);
    context->SetBlockDim(blocks);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class GatherSimtCustom : public OpDef {
public:
    explicit GatherSimtCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("indices").ParamType(REQUIRED).DataType({ge::DT_INT32, ge::DT_INT32}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend950");
    }
};
OP_ADD(GatherSimtCustom);
}  // namespace ops
