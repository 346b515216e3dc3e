// Test operator: y = x * s[0], s a one-element tensor of x's dtype, split over 4 blocks. Host
// side uses what CANN's headers bring along: std::cout with no <iostream> of its own (CANN's
// register/op_def.h includes it), std::numeric_limits with no <limits> (CANN's exe_graph/runtime/shape.h
// includes it), ge::UNKNOWN_DIM / UNKNOWN_RANK, ge::char_t and the input
// descs and input tensors of an InferShapeContext; ge's DataType from register/tilingdata_base.h
// alone (hdr_gaps_proto_utils.h, as cann-ops' foreach_proto_utils.h).
#include "hdr_gaps_proto_utils.h"
#include "hdr_gaps_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const int64_t* buffers = context->GetAttrs()->GetInt(0);
    uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    if (buffers == nullptr || total % 4 != 0 || total > std::numeric_limits<int32_t>::max()) {
        std::cout << "hdr_gaps: x must split into 4 equal blocks, got " << total << std::endl;
        return ge::GRAPH_FAILED;
    }
    HdrGapsTilingData tiling;
    tiling.set_perBlock(total / 4);
    tiling.set_buffers(static_cast<uint32_t>(*buffers));
    context->SetBlockDim(4);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static graphStatus InferShape(gert::InferShapeContext* context)
{
    const char_t* who = context->GetNodeName();
    const gert::Shape* x = context->GetInputShape(0);
    const gert::CompileTimeTensorDesc* xd = context->GetInputDesc(0);
    const gert::CompileTimeTensorDesc* sd = context->GetInputDesc(1);
    if (who == nullptr || x == nullptr || xd == nullptr || sd == nullptr || context->GetInputDesc(2) != nullptr) {
        return GRAPH_FAILED;
    }
    if (xd->GetDataType() != sd->GetDataType() || xd->GetOriginFormat() != FORMAT_ND) {
        std::cout << who << ": x and s must share one dtype" << std::endl;
        return GRAPH_FAILED;
    }
    gert::Shape* y = context->GetOutputShape(0);
    if (x->GetDimNum() == 1 && x->GetDim(0) == UNKNOWN_RANK[0]) {
        *y = *x;   // unknown rank stays unknown
        return GRAPH_SUCCESS;
    }
    // y is x and s broadcast, their shapes read from the input tensors as cann-ops
    // KlDivTargetBackward does (GE hands every input's tensor; values only for ValueDepend ones)
    const gert::Tensor* xt = context->GetInputTensor(0);
    const gert::Tensor* st = context->GetRequiredInputTensor(1);
    if (xt == nullptr || st == nullptr || xt->GetAddr() != nullptr || xt->GetDataType() != xd->GetDataType() ||
        xt->GetOriginShape().GetDimNum() != x->GetDimNum()) {
        return GRAPH_FAILED;
    }
    const gert::Shape& xs = xt->GetOriginShape();
    const gert::Shape& ss = st->GetStorageShape();
    const size_t rank = std::max(xs.GetDimNum(), ss.GetDimNum());
    y->SetDimNum(rank);
    for (size_t i = 0; i < rank; ++i) {
        const int64_t a = i + xs.GetDimNum() >= rank ? xs.GetDim(i + xs.GetDimNum() - rank) : 1;
        const int64_t b = i + ss.GetDimNum() >= rank ? ss.GetDim(i + ss.GetDimNum() - rank) : 1;
        y->SetDim(i, a == UNKNOWN_DIM || b == UNKNOWN_DIM ? UNKNOWN_DIM : std::max(a, b));
    }
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class HdrGaps : public OpDef {
public:
    explicit HdrGaps(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("s").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("buffers").Int();
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(HdrGaps);
}  // namespace ops
