// Test operator for the split launch of mixed kernels: `blocks` AI cores, each running its cube
// body and its vector bodies, handing data through the GM scratch `ws` with CrossCoreSetFlag /
// CrossCoreWaitFlag. Attr `which` (the tiling key) picks the exchange; see op_kernel/cross_core.cpp.
#include "cross_core_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const int64_t* which = context->GetAttrs()->GetInt(0);
    const int64_t* blocks = context->GetAttrs()->GetInt(1);
    if (which == nullptr || blocks == nullptr) {
        return ge::GRAPH_FAILED;
    }
    CrossCoreTilingData tiling;
    tiling.set_blocks(static_cast<uint32_t>(*blocks));
    context->SetBlockDim(static_cast<uint32_t>(*blocks));
    context->SetTilingKey(static_cast<uint64_t>(*which));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class CrossCore : public OpDef {
public:
    explicit CrossCore(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("ws").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("which").AttrType(REQUIRED).Int();
        this->Attr("blocks").AttrType(OPTIONAL).Int(2);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(CrossCore);
}  // namespace ops
