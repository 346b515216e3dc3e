// Test operator: LayerNorm over the last axis, rows split across the vector cores.
#include "lnorm_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus LnormTiling(gert::TilingContext* context)
{
    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    uint32_t cols = static_cast<uint32_t>(shape.GetDim(shape.GetDimNum() - 1));
    uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / cols);
    const float* eps = context->GetAttrs()->GetFloat(0);
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    if (static_cast<uint64_t>(cols) * sizeof(float) * 6 > ub) {
        return ge::GRAPH_FAILED;     // one row must fit in UB
    }
    uint32_t cores = platform.GetCoreNumAiv();
    uint32_t used = rows < cores ? rows : cores;
    LnormTilingData t;
    t.set_rows(rows);
    t.set_cols(cols);
    t.set_rowsPerCore(rows / used);
    t.set_bigCores(rows % used);
    t.set_epsilon(eps ? *eps : 1e-5f);
    t.set_invCols(1.0f / cols);
    context->SetBlockDim(used);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class Lnorm : public OpDef {
public:
    explicit Lnorm(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);
        this->AICore().SetTiling(optiling::LnormTiling).AddConfig("ascend910b");
    }
};
OP_ADD(Lnorm);
}  // namespace ops
