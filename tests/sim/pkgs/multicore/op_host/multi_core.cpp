// Test operator for the soft SyncAll (a GM workspace and a UB buffer) and DataCopy with
// SliceInfo: `blocks` blocks; attr `which` is the tiling key. The workspace holds a 32-byte
// sync word per block after the system workspace.
#include "multi_core_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const int64_t* which = context->GetAttrs()->GetInt(0);
    const int64_t* blocks = context->GetAttrs()->GetInt(1);
    if (which == nullptr || blocks == nullptr) {
        return ge::GRAPH_FAILED;
    }
    MultiCoreTilingData tiling;
    tiling.set_blocks(static_cast<uint32_t>(*blocks));
    context->SetBlockDim(static_cast<uint32_t>(*blocks));
    context->SetTilingKey(static_cast<uint64_t>(*which));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = platform.GetLibApiWorkSpaceSize() + static_cast<size_t>(*blocks) * 32;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class MultiCore : public OpDef {
public:
    explicit MultiCore(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("s").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("which").AttrType(REQUIRED).Int();
        this->Attr("blocks").AttrType(OPTIONAL).Int(4);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(MultiCore);
}  // namespace ops
