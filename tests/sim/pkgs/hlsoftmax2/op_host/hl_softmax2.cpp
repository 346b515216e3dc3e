// Test operator for SoftmaxFlashV2, SoftmaxGrad(Front), LogSoftMax and AdjustSoftMaxRes: x and g
// are [rows, cols]; z gets the [rows, cols] result, s/m/e one 32-byte block per row. The tiling
// comes from SoftMaxFlashV2TilingFunc (keys 1, 2, 6), SoftMaxGradTilingFunc (key 3, with
// GetSoftMaxGradMinTmpSize) or SoftMaxTilingFunc. One block.
#include "hl_softmax2_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const int64_t* which = context->GetAttrs()->GetInt(0);
    const int64_t* from = context->GetAttrs()->GetInt(1);
    if (which == nullptr || from == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    std::vector<int64_t> dims = {shape.GetDim(0), shape.GetDim(1)};
    ge::Shape srcShape(dims);
    HlSoftmax2TilingData tiling;
    tiling.set_rows(static_cast<uint32_t>(shape.GetDim(0)));
    tiling.set_cols(static_cast<uint32_t>(shape.GetDim(1)));
    tiling.set_from(static_cast<uint32_t>(*from));
    const uint32_t tmp = AscendC::GetSoftMaxMinTmpSize(srcShape, typeSize, false);
    if (*which == 1 || *which == 2 || *which == 6) {
        AscendC::SoftMaxFlashV2TilingFunc(srcShape, typeSize, typeSize, tmp, tiling.softmaxTiling, *which == 2);
    } else if (*which == 3) {
        const uint32_t gradTmp = AscendC::GetSoftMaxGradMinTmpSize(srcShape, typeSize, false, false);
        AscendC::SoftMaxGradTilingFunc(srcShape, typeSize, gradTmp, tiling.softmaxTiling);
    } else {
        AscendC::SoftMaxTilingFunc(srcShape, typeSize, tmp, tiling.softmaxTiling);
    }
    context->SetBlockDim(1);
    context->SetTilingKey(static_cast<uint64_t>(*which));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class HlSoftmax2 : public OpDef {
public:
    explicit HlSoftmax2(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("g").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("s").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("m").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("e").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("which").AttrType(REQUIRED).Int();
        this->Attr("from").AttrType(OPTIONAL).Int(0);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(HlSoftmax2);
}  // namespace ops
