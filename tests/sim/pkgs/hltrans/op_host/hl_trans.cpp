// Test operator for ConfusionTranspose: x holds the source (up to 4096 elements), z the result.
// Attr `which` is the TransposeType (1..7, the tiling key); b, n, s, d the shape [B, N, S, H / N]
// (scene 7: [s, d]). The tiling and the temporary space come from GetConfusionTransposeTilingInfo
// (GetConfusionTransposeOnlyTilingInfo for scene 7) and GetConfusionTransposeMaxMinTmpSize. One block.
#include <vector>
#include "hl_trans_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const int64_t* a[6];
    for (int i = 0; i < 6; ++i) {
        a[i] = context->GetAttrs()->GetInt(i);
        if (a[i] == nullptr) {
            return ge::GRAPH_FAILED;
        }
    }
    const uint32_t which = static_cast<uint32_t>(*a[0]), shrink = static_cast<uint32_t>(*a[5]);
    const int64_t b = *a[1], n = *a[2], s = *a[3], d = *a[4];
    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    const ge::Shape shape = which == 7 ? ge::Shape(std::vector<int64_t>{s, d}) : ge::Shape(std::vector<int64_t>{b, n, s, d});
    uint32_t maxValue = 0, minValue = 0;
    AscendC::GetConfusionTransposeMaxMinTmpSize(shape, typeSize, which, maxValue, minValue);
    HlTransTilingData tiling;
    if (which == 7) {
        AscendC::GetConfusionTransposeOnlyTilingInfo(shape, minValue, typeSize, tiling.ct);
    } else {
        AscendC::GetConfusionTransposeTilingInfo(shape, minValue, typeSize, which, tiling.ct);
    }
    tiling.set_count(static_cast<uint32_t>(which == 7 ? s * d : b * n * s * d));
    tiling.set_tmpBytes(minValue > shrink + 32 ? minValue - shrink : 32);
    context->SetBlockDim(1);
    context->SetTilingKey(which);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class HlTrans : public OpDef {
public:
    explicit HlTrans(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("which").AttrType(REQUIRED).Int();
        this->Attr("b").AttrType(REQUIRED).Int();
        this->Attr("n").AttrType(REQUIRED).Int();
        this->Attr("s").AttrType(REQUIRED).Int();
        this->Attr("d").AttrType(REQUIRED).Int();
        this->Attr("shrink").AttrType(OPTIONAL).Int(0);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(HlTrans);
}  // namespace ops
