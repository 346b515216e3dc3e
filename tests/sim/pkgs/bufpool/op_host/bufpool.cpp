// Test operator for TBufPool (op_kernel): attr `mode` is the tiling key.
#include "bufpool_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    BufPoolTilingData tiling;
    tiling.set_length(static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize()));
    context->SetBlockDim(1);
    context->SetTilingKey(static_cast<uint64_t>(*context->GetAttrs()->GetInt(0)));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class BufPool : public OpDef {
public:
    explicit BufPool(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("where").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Attr("mode").AttrType(REQUIRED).Int();
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(BufPool);
}  // namespace ops
