// Test operator for SoftmaxFlashV3: x and g are [rows, cols] half (two tiles of one row block);
// z gets the [rows, cols] result, mean/sum/max one float block per row, e (expMax) one half
// block per row. The tiling comes from SoftMaxFlashV3TilingFunc with
// GetSoftMaxFlashV3MaxMinTmpSize's minimum. One block.
#include "hl_softmax3_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const int64_t* which = context->GetAttrs()->GetInt(0);
    if (which == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    std::vector<int64_t> dims = {shape.GetDim(0), shape.GetDim(1)};
    ge::Shape srcShape(dims);
    HlSoftmax3TilingData tiling;
    tiling.set_rows(static_cast<uint32_t>(shape.GetDim(0)));
    tiling.set_cols(static_cast<uint32_t>(shape.GetDim(1)));
    uint32_t maxTmp = 0, minTmp = 0;
    AscendC::GetSoftMaxFlashV3MaxMinTmpSize(srcShape, 2, 4, maxTmp, minTmp, *which != 1);
    tiling.set_tmpBytes(minTmp);
    AscendC::SoftMaxFlashV3TilingFunc(srcShape, 2, 4, minTmp, tiling.softmaxTiling, *which != 1);
    context->SetBlockDim(1);
    context->SetTilingKey(static_cast<uint64_t>(*which));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class HlSoftmax3 : public OpDef {
public:
    explicit HlSoftmax3(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("g").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("stats").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("e").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Attr("which").AttrType(REQUIRED).Int();
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(HlSoftmax3);
}  // namespace ops
