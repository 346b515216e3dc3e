// Test operator for the sort APIs: x holds n scores; attr `which` (the tiling key) picks the
// sequence of sort calls, z gets the sorted scores and zi their indices (or merge counts). One block.
#include "sort_api_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const int64_t* which = context->GetAttrs()->GetInt(0);
    const int64_t* tmpElems = context->GetAttrs()->GetInt(1);
    if (which == nullptr || tmpElems == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t n = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    SortApiTilingData tiling;
    tiling.set_n(n);
    tiling.set_tmpElems(*tmpElems ? static_cast<uint32_t>(*tmpElems) : n * 8);   // 0: room for any layout
    context->SetBlockDim(1);
    context->SetTilingKey(static_cast<uint64_t>(*which));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class SortApi : public OpDef {
public:
    explicit SortApi(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("zi").ParamType(REQUIRED).DataType({ge::DT_INT32, ge::DT_INT32}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("which").AttrType(REQUIRED).Int();
        this->Attr("tmp_elems").AttrType(REQUIRED).Int();
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b").AddConfig("ascend310p");
    }
};
OP_ADD(SortApi);
}  // namespace ops
