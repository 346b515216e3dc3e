// Test operator: applies the vector instruction selected by attr `which` (passed on as the
// tiling key) to x (and y), writing z. One block.
#include "vec_ops_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const int64_t* which = context->GetAttrs()->GetInt(0);
    const float* scalar = context->GetAttrs()->GetFloat(1);
    const int64_t* count = context->GetAttrs()->GetInt(2);
    if (which == nullptr || scalar == nullptr || count == nullptr) {
        return ge::GRAPH_FAILED;
    }
    VecOpsTilingData tiling;
    tiling.set_padded(static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize()));
    tiling.set_count(static_cast<uint32_t>(*count));
    tiling.set_scalar(*scalar);
    context->SetBlockDim(1);
    context->SetTilingKey(static_cast<uint64_t>(*which));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class VecOps : public OpDef {
public:
    explicit VecOps(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("which").AttrType(REQUIRED).Int();
        this->Attr("scalar").AttrType(OPTIONAL).Float(1.5f);
        this->Attr("count").AttrType(REQUIRED).Int();
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(VecOps);
}  // namespace ops
