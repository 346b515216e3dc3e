// Test operator for the vector mask register (counter/normal mode, isSetMask = false) and the
// atomic store modes: attr `which` (the tiling key) picks the case. One block.
#include "mask_reg_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const int64_t* which = context->GetAttrs()->GetInt(0);
    const int64_t* count = context->GetAttrs()->GetInt(1);
    const int64_t* tmp = context->GetAttrs()->GetInt(2);
    const float* scalar = context->GetAttrs()->GetFloat(3);
    if (which == nullptr || count == nullptr || tmp == nullptr || scalar == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const int64_t tmpBytes = *tmp;
    MaskRegTilingData tiling;
    tiling.set_padded(static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize()));
    tiling.set_count(static_cast<uint32_t>(*count));
    tiling.set_tmpBytes(static_cast<int32_t>(tmpBytes));
    tiling.set_scalar(*scalar);
    context->SetBlockDim(1);
    context->SetTilingKey(static_cast<uint64_t>(*which));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class MaskReg : public OpDef {
public:
    explicit MaskReg(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("which").AttrType(REQUIRED).Int();
        this->Attr("count").AttrType(REQUIRED).Int();
        this->Attr("tmp_bytes").AttrType(REQUIRED).Int();
        this->Attr("scalar").AttrType(OPTIONAL).Float(1.5f);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(MaskReg);
}  // namespace ops
