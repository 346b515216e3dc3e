// Test operator for SoftMax: x is [rows, cols] with `valid` elements per row; z = SoftMax(x), and
// the row sums and maxima land in s and m (one 32-byte block per row). The tiling comes from
// SoftMaxTilingFunc and GetSoftMaxMinTmpSize, as real operators do it. One block.
#include "hl_softmax_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const int64_t* valid = context->GetAttrs()->GetInt(0);
    const int64_t* which = context->GetAttrs()->GetInt(1);
    const int64_t* shrink = context->GetAttrs()->GetInt(2);
    if (valid == nullptr || which == nullptr || shrink == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    const uint32_t rows = static_cast<uint32_t>(shape.GetDim(0));
    const uint32_t cols = static_cast<uint32_t>(shape.GetDim(1));
    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    std::vector<int64_t> dims = {rows, cols};
    ge::Shape srcShape(dims);
    const uint32_t minTmp = AscendC::GetSoftMaxMinTmpSize(srcShape, typeSize, false);
    if (AscendC::GetSoftMaxMaxTmpSize(srcShape, typeSize, false) < minTmp) {
        return ge::GRAPH_FAILED;
    }
    HlSoftmaxTilingData tiling;
    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_valid(static_cast<uint32_t>(*valid));
    tiling.set_tmpBytes(minTmp - static_cast<uint32_t>(*shrink));
    AscendC::SoftMaxTilingFunc(srcShape, typeSize, minTmp, tiling.softmaxTiling);
    context->SetBlockDim(1);
    context->SetTilingKey(static_cast<uint64_t>(*which));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class HlSoftmax : public OpDef {
public:
    explicit HlSoftmax(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("s").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("m").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("valid").AttrType(REQUIRED).Int();
        this->Attr("which").AttrType(REQUIRED).Int();
        this->Attr("shrink").AttrType(REQUIRED).Int();
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(HlSoftmax);
}  // namespace ops
