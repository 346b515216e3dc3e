// Test operator for the cube's 4:2 sparse product (cube.h: LoadDataWithSparse, MmadWithSparse):
// c (m x n, int32) = a (m x k) x the sparse B rebuilt from its densified k/2 x n values and
// their indices, on one block. The inputs come in the cube's layouts (see op_kernel); q holds n
// per-channel quantisation values (key 3).
#include "cube_sparse_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    CubeSparseTilingData tiling;
    tiling.set_m(static_cast<uint32_t>(*context->GetAttrs()->GetInt(1)));
    tiling.set_n(static_cast<uint32_t>(*context->GetAttrs()->GetInt(2)));
    tiling.set_k(static_cast<uint32_t>(*context->GetAttrs()->GetInt(3)));
    context->SetBlockDim(1);
    context->SetTilingKey(static_cast<uint64_t>(*context->GetAttrs()->GetInt(0)));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class CubeSparse : public OpDef {
public:
    explicit CubeSparse(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_INT8}).Format({ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_INT8}).Format({ge::FORMAT_ND});
        this->Input("idx").ParamType(REQUIRED).DataType({ge::DT_UINT8}).Format({ge::FORMAT_ND});
        this->Input("q").ParamType(REQUIRED).DataType({ge::DT_UINT64}).Format({ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Attr("which").AttrType(REQUIRED).Int();
        this->Attr("m").AttrType(REQUIRED).Int();
        this->Attr("n").AttrType(REQUIRED).Int();
        this->Attr("k").AttrType(REQUIRED).Int();
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(CubeSparse);
}  // namespace ops
