// Test operator for the high-level libraries: attr `which` (the tiling key) picks the API, applied
// to x (and y) into z over `count` elements, with a sharedTmpBuffer of `tmp_bytes` (-1: the form
// without one). One block.
#include "hl_math_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/tiling_api.h"

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
    // tmp_bytes -2 / -3: the minimum the API's host helper gives / 32 bytes less.
    int64_t tmpBytes = *tmp;
    if (tmpBytes <= -2) {
        const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
        std::vector<int64_t> dims = {*count};
        ge::Shape shape(dims);
        uint32_t maxValue = 0, minValue = 0;
        switch (*which) {
            case 1: AscendC::GetSinMaxMinTmpSize(shape, typeSize, false, maxValue, minValue); break;
            case 9: AscendC::GetTanhMaxMinTmpSize(shape, typeSize, false, maxValue, minValue); break;
            case 13: AscendC::GetErfMaxMinTmpSize(shape, typeSize, false, maxValue, minValue); break;
            case 24: AscendC::GetSigmoidMaxMinTmpSize(shape, typeSize, false, maxValue, minValue); break;
            case 50: AscendC::GetPowerMaxMinTmpSize(shape, shape, false, typeSize, false, maxValue, minValue); break;
            default: return ge::GRAPH_FAILED;
        }
        if (maxValue < minValue) return ge::GRAPH_FAILED;
        tmpBytes = tmpBytes == -2 ? minValue : minValue - 32;
    }
    HlMathTilingData tiling;
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
class HlMath : public OpDef {
public:
    explicit HlMath(const char* name) : OpDef(name)
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
OP_ADD(HlMath);
}  // namespace ops
