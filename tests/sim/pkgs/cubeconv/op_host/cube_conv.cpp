// Test operator for the cube's img2col load and transposing loads (cube_load3d.h) on one block.
// Attr `which` (the tiling key) picks the path or the misuse to check; the others are sizes.
#include "cube_conv_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    int64_t v[8];
    for (int i = 0; i < 8; ++i) {
        const int64_t* a = context->GetAttrs()->GetInt(i);
        if (a == nullptr) {
            return ge::GRAPH_FAILED;
        }
        v[i] = *a;
    }
    CubeConvTilingData tiling;
    tiling.set_h(static_cast<uint32_t>(v[1]));
    tiling.set_wd(static_cast<uint32_t>(v[2]));
    tiling.set_kh(static_cast<uint32_t>(v[3]));
    tiling.set_kw(static_cast<uint32_t>(v[4]));
    tiling.set_s(static_cast<uint32_t>(v[5]));
    tiling.set_p(static_cast<uint32_t>(v[6]));
    tiling.set_n(static_cast<uint32_t>(v[7]));
    context->SetBlockDim(1);
    context->SetTilingKey(static_cast<uint64_t>(v[0]));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class CubeConv : public OpDef {
public:
    explicit CubeConv(const char* name) : OpDef(name)
    {
        this->Input("fm").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_INT8})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("wt").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_INT8})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("which").AttrType(REQUIRED).Int();
        this->Attr("h").AttrType(REQUIRED).Int();
        this->Attr("wd").AttrType(REQUIRED).Int();
        this->Attr("kh").AttrType(REQUIRED).Int();
        this->Attr("kw").AttrType(REQUIRED).Int();
        this->Attr("s").AttrType(REQUIRED).Int();
        this->Attr("p").AttrType(REQUIRED).Int();
        this->Attr("n").AttrType(REQUIRED).Int();
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(CubeConv);
}  // namespace ops
