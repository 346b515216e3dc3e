// Test operator for TopK: x is 256 elements, [4, 64] in Normal mode (keys 1, 2) or [8, 32] in
// Small mode (key 3), n valid per row; v and i the values and indices (rows of k rounded up to
// 32 bytes in Normal mode, packed in Small). The tiling and the temporary space come from
// TopKTilingFunc and GetTopKMaxMinTmpSize, as real operators do it. One block.
#include "hl_topk_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const int64_t* which = context->GetAttrs()->GetInt(0);
    const int64_t* k = context->GetAttrs()->GetInt(1);
    const int64_t* n = context->GetAttrs()->GetInt(2);
    const int64_t* largest = context->GetAttrs()->GetInt(3);
    const int64_t* shrink = context->GetAttrs()->GetInt(4);
    if (which == nullptr || k == nullptr || n == nullptr || largest == nullptr || shrink == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    const bool small = *which == 3;
    const int32_t inner = small ? 32 : 64, outter = small ? 8 : 4;
    const AscendC::TopKMode mode = small ? AscendC::TopKMode::TOPK_NSMALL : AscendC::TopKMode::TOPK_NORMAL;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t maxValue = 0, minValue = 0;
    HlTopkTilingData tiling;
    if (!AscendC::GetTopKMaxMinTmpSize(platform, inner, outter, false, *which == 2, mode, *largest != 0, typeSize,
                                       maxValue, minValue) ||
        !AscendC::TopKTilingFunc(platform, inner, outter, static_cast<int32_t>(*k), typeSize, *which == 2, mode,
                                 *largest != 0, tiling.topk)) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_k(static_cast<int32_t>(*k));
    tiling.set_n(static_cast<int32_t>(*n));
    tiling.set_largest(static_cast<uint32_t>(*largest));
    tiling.set_tmpBytes(minValue - static_cast<uint32_t>(*shrink));
    context->SetBlockDim(1);
    context->SetTilingKey(static_cast<uint64_t>(*which));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class HlTopk : public OpDef {
public:
    explicit HlTopk(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("v").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("i").ParamType(REQUIRED).DataType({ge::DT_INT32, ge::DT_INT32}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("which").AttrType(REQUIRED).Int();
        this->Attr("k").AttrType(REQUIRED).Int();
        this->Attr("n").AttrType(REQUIRED).Int();
        this->Attr("largest").AttrType(OPTIONAL).Int(1);
        this->Attr("shrink").AttrType(OPTIONAL).Int(0);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(HlTopk);
}  // namespace ops
