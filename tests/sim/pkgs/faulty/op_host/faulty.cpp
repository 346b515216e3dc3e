// Test operator whose attr `mode` selects a deliberate mistake (host side for modes >= 100,
// kernel side otherwise, through the tiling key).
#include "faulty_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    int64_t mode = *context->GetAttrs()->GetInt(0);
    int64_t blocks = *context->GetAttrs()->GetInt(1);
    int64_t bufferBytes = *context->GetAttrs()->GetInt(2);
    if (mode == 100) {
        return ge::GRAPH_FAILED;
    }
    if (mode == 103) {
        uint64_t l1 = 0;
        platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreMemSize(platform_ascendc::CoreMemType::L1, l1);
    }
    FaultyTilingData tiling;
    tiling.set_length(static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize() / blocks));
    tiling.set_bufferBytes(static_cast<uint32_t>(bufferBytes));
    context->SetBlockDim(mode == 101 ? 0 : (mode == 102 ? 1000 : static_cast<uint32_t>(blocks)));
    context->SetTilingKey(static_cast<uint64_t>(mode));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = (mode == 10 || mode == 13 || mode == 41 || mode == 48 || mode == 49 || (mode >= 50 && mode <= 55)) ? 16 * 1024 * 1024 + 4096 : 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class Faulty : public OpDef {
public:
    explicit Faulty(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("mode").AttrType(REQUIRED).Int();
        this->Attr("blocks").AttrType(OPTIONAL).Int(1);
        this->Attr("buffer_bytes").AttrType(OPTIONAL).Int(1024);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(Faulty);
}  // namespace ops
