// Test operator: the Ascend C constructs real operators use (operator overloads, ASSERT directly
// after an expression, float32_t, TQueSync, TBuf's queue interface, Copy, GatherMask, Sort32, a
// ReduceSum into a 4-byte aligned dst). Attr `which` selects the case (the tiling key).
#include "real_api_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const int64_t* which = context->GetAttrs()->GetInt(0);
    // As CANN's MoeSoftMaxTopk sample reads an Int attr: through a narrower pointer.
    const uint32_t* count = context->GetAttrs()->GetAttrPointer<uint32_t>(1);
    if (which == nullptr || count == nullptr) {
        return ge::GRAPH_FAILED;
    }
    RealApiTilingData tiling;
    tiling.set_padded(static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize()));
    tiling.set_count(static_cast<uint32_t>(*count));
    context->SetBlockDim(1);
    context->SetTilingKey(static_cast<uint64_t>(*which));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class RealApi : public OpDef {
public:
    explicit RealApi(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("which").Int();
        this->Attr("count").Int();
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(RealApi);
}  // namespace ops
