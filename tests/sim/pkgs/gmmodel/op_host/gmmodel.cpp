// Test operator for the GM memory model: attr `mode` (the tiling key) selects what the kernel does
// with a tensor whose length is not a whole number of 32-byte blocks.
#include "gmmodel_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    int64_t mode = *context->GetAttrs()->GetInt(0);
    uint32_t length = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    GmModelTilingData tiling;
    tiling.set_length(length);
    tiling.set_rounded((length + 7) / 8 * 8);   // whole 32-byte blocks of float
    context->SetBlockDim(1);
    context->SetTilingKey(static_cast<uint64_t>(mode));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class GmModel : public OpDef {
public:
    explicit GmModel(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("mode").AttrType(REQUIRED).Int();
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(GmModel);
}  // namespace ops
