// Test operator for the sim's SIMT model (opkg_sim/simt): attr `which` (the tiling key) picks
// the SIMT function, `blocks` the block count.
#include "simt_kernels_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const int64_t* which = context->GetAttrs()->GetInt(0);
    const int64_t* blocks = context->GetAttrs()->GetInt(1);
    if (which == nullptr || blocks == nullptr) {
        return ge::GRAPH_FAILED;
    }
    SimtKernelsTilingData tiling;
    tiling.set_m(static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize()));
    tiling.set_n(static_cast<uint32_t>(context->GetInputShape(1)->GetStorageShape().GetShapeSize()));
    tiling.set_ylen(static_cast<uint32_t>(context->GetOutputShape(0)->GetStorageShape().GetShapeSize()));
    context->SetBlockDim(static_cast<uint32_t>(*blocks));
    context->SetTilingKey(static_cast<uint64_t>(*which));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class SimtKernels : public OpDef {
public:
    explicit SimtKernels(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("idx").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("which").AttrType(REQUIRED).Int();
        this->Attr("blocks").AttrType(REQUIRED).Int();
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend950");
    }
};
OP_ADD(SimtKernels);
}  // namespace ops
