// Test operator for the quantization and normalization libraries: x [8, 64] and g (gamma, beta,
// scales, gx) of T; z [8, 64] and s [128] of T, r [64] float, q [256] raw int32 words. Attr
// `which` (the tiling key) picks the API. One block.
#include "hl_norm_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const int64_t* which = context->GetAttrs()->GetInt(0);
    const float* scale = context->GetAttrs()->GetFloat(1);
    const float* offset = context->GetAttrs()->GetFloat(2);
    const float* eps = context->GetAttrs()->GetFloat(3);
    const int64_t* valid = context->GetAttrs()->GetInt(4);
    if (which == nullptr || scale == nullptr || offset == nullptr || eps == nullptr || valid == nullptr) {
        return ge::GRAPH_FAILED;
    }
    HlNormTilingData tiling;
    tiling.set_scale(*scale);
    tiling.set_offset(*offset);
    tiling.set_eps(*eps);
    tiling.set_valid(static_cast<uint32_t>(*valid));
    context->SetBlockDim(1);
    context->SetTilingKey(static_cast<uint64_t>(*which));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class HlNorm : public OpDef {
public:
    explicit HlNorm(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("g").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("s").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("r").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("q").ParamType(REQUIRED).DataType({ge::DT_INT32, ge::DT_INT32}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("which").AttrType(REQUIRED).Int();
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0f);
        this->Attr("offset").AttrType(OPTIONAL).Float(0.0f);
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);
        this->Attr("valid").AttrType(OPTIONAL).Int(64);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(HlNorm);
}  // namespace ops
