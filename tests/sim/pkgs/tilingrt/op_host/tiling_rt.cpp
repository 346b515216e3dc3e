// Test operator: every tiling field comes from an attr, so the test controls what must arrive
// in the kernel.
#include <cstring>
#include "tiling_rt_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus TilingRtFunc(gert::TilingContext* context)
{
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const bool* flag = attrs->GetBool(0);
    const int64_t* big = attrs->GetAttrPointer<int64_t>(1);
    const float* ratio = attrs->GetFloat(2);
    const char* label = attrs->GetStr(3);
    const gert::TypedContinuousVector<int64_t>* ints = attrs->GetListInt(4);
    const gert::TypedContinuousVector<float>* floats = attrs->GetListFloat(5);
    if (!flag || !big || !ratio || !label || !ints || !floats || ints->GetSize() != 5 || floats->GetSize() < 1) {
        return ge::GRAPH_FAILED;
    }
    TilingDataRT tiling;
    tiling.set_a(*flag ? 200 : 100);
    tiling.set_b(*big);
    tiling.set_c(*ratio);
    tiling.set_d(static_cast<uint16_t>(std::strlen(label)));
    int32_t arr[5];
    for (size_t i = 0; i < 5; ++i) arr[i] = static_cast<int32_t>(ints->GetData()[i]);
    tiling.set_arr(arr);
    tiling.inner.set_p(static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetDim(0)));
    tiling.inner.set_q(-*big);
    tiling.inner.set_r(floats->GetData()[0]);
    // Input values reach tiling only for ValueDepend inputs (bias), as in CANN.
    if (context->GetInputTensor(0)->GetData<float>() != nullptr) {
        return ge::GRAPH_FAILED;
    }
    const gert::Tensor* bias = context->GetOptionalInputTensor(1);
    tiling.set_e(bias != nullptr ? static_cast<int8_t>(bias->GetData<float>()[0]) : -5);
    context->SetBlockDim(3);
    context->SetTilingKey(static_cast<uint64_t>(ints->GetData()[0]));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class TilingRt : public OpDef {
public:
    explicit TilingRt(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(OPTIONAL).ValueDepend(OPTIONAL).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_INT64}).Format({ge::FORMAT_ND});
        this->Attr("flag").AttrType(OPTIONAL).Bool(true);
        this->Attr("big").AttrType(REQUIRED).Int();
        this->Attr("ratio").AttrType(OPTIONAL).Float(0.5f);
        this->Attr("label").AttrType(OPTIONAL).String("abc");
        this->Attr("ints").AttrType(OPTIONAL).ListInt({1, 2, 3, 4, 5});
        this->Attr("floats").AttrType(OPTIONAL).ListFloat({0.25f});
        // No SetTiling: the manifest names optiling::TilingRtFunc (tiling.function).
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TilingRt);
}  // namespace ops
