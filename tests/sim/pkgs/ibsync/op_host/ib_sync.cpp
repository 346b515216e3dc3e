// Test operator for IBSet/IBWait: `blocks` blocks pass a value along a chain of flags in the
// zeroed workspace ws; z gets one 8-word row per block. Attr `which` (the tiling key) picks the chain.
#include "ib_sync_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const int64_t* which = context->GetAttrs()->GetInt(0);
    const int64_t* blocks = context->GetAttrs()->GetInt(1);
    if (which == nullptr || blocks == nullptr) {
        return ge::GRAPH_FAILED;
    }
    IbSyncTilingData tiling;
    tiling.set_blocks(static_cast<uint32_t>(*blocks));
    context->SetBlockDim(static_cast<uint32_t>(*blocks));
    context->SetTilingKey(static_cast<uint64_t>(*which));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class IbSync : public OpDef {
public:
    explicit IbSync(const char* name) : OpDef(name)
    {
        this->Input("ws").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Attr("which").AttrType(REQUIRED).Int();
        this->Attr("blocks").AttrType(OPTIONAL).Int(4);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(IbSync);
}  // namespace ops
