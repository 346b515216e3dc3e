// Test operator for int4 tensors (ge::DT_INT4, AscendC::int4b_t): x int4 [n] -> y int32 = 2 * x,
// z int4 = x with element 1 replaced by -x[1] (wrapped to 4 bits) and the last by 7 (attr
// overrun: the kernel copies x into a LocalTensor half its size instead). The tiling
// records x's first GM byte, which the host reads as the device holds it: two values a byte.
#include "int4_widen_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Int4WidenTilingData tiling;
    tiling.set_n(static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize()));
    const gert::Tensor* x = context->GetInputTensor(0);
    const uint8_t* bytes = x == nullptr ? nullptr : x->GetData<uint8_t>();
    tiling.set_firstByte(bytes == nullptr ? -1 : static_cast<int32_t>(bytes[0]));
    const bool* overrun = context->GetAttrs()->GetBool(0);
    tiling.set_overrun(overrun != nullptr && *overrun ? 1 : 0);
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class Int4Widen : public OpDef {
public:
    explicit Int4Widen(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_INT4}).Format({ge::FORMAT_ND}).ValueDepend(OPTIONAL);
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_INT4}).Format({ge::FORMAT_ND});
        this->Attr("overrun").AttrType(OPTIONAL).Bool(false);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(Int4Widen);
}  // namespace ops
