// Test operator: y = x * scale for complex64 x, the kernel working on float pairs as CANN's
// Muls does; the tiling checks it sees DT_COMPLEX64.
#include "cplx_scale_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const float* scale = context->GetAttrs()->GetFloat(0);
    if (scale == nullptr || context->GetInputDesc(0)->GetDataType() != ge::DT_COMPLEX64 ||
        ge::GetSizeByDataType(ge::DT_COMPLEX64) != 8) {
        return ge::GRAPH_FAILED;
    }
    CplxScaleTilingData tiling;
    tiling.set_count(static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize()));
    tiling.set_scale(*scale);
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class CplxScale : public OpDef {
public:
    explicit CplxScale(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_COMPLEX64}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_COMPLEX64}).Format({ge::FORMAT_ND});
        this->Attr("scale").Float();
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(CplxScale);
}  // namespace ops
