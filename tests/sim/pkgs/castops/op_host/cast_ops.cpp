// Test operator for the cast-unit and register APIs (vector_cast_ops.h): x, y and z are raw
// 32-bit words the kernel reinterprets per case; attr `which` (the tiling key) picks the case.
#include "cast_ops_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const int64_t* which = context->GetAttrs()->GetInt(0);
    const float* scalar = context->GetAttrs()->GetFloat(1);
    if (which == nullptr || scalar == nullptr) {
        return ge::GRAPH_FAILED;
    }
    CastOpsTilingData tiling;
    tiling.set_words(static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize()));
    tiling.set_scalar(*scalar);
    context->SetBlockDim(1);
    context->SetTilingKey(static_cast<uint64_t>(*which));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class CastOps : public OpDef {
public:
    explicit CastOps(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Attr("which").AttrType(REQUIRED).Int();
        this->Attr("scalar").AttrType(OPTIONAL).Float(1.0f);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(CastOps);
}  // namespace ops
