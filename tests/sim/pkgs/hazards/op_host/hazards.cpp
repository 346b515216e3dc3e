// Test operator for --sync-check: attr `mode` (the tiling key) leaves out one synchronisation
// of an otherwise correct kernel (see op_kernel/hazards.cpp).
#include "hazards_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    int64_t mode = *context->GetAttrs()->GetInt(0);
    int64_t blocks = *context->GetAttrs()->GetInt(1);
    HazardsTilingData tiling;
    tiling.set_length(static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize() / blocks));
    tiling.set_tileLength(64);
    context->SetBlockDim(static_cast<uint32_t>(blocks));
    context->SetTilingKey(static_cast<uint64_t>(mode));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class Hazards : public OpDef {
public:
    explicit Hazards(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("mode").AttrType(REQUIRED).Int();
        this->Attr("blocks").AttrType(OPTIONAL).Int(1);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(Hazards);
}  // namespace ops
