// Test operator for the high-level Matmul (hl_matmul.h, host_matmul_tiling.h): c = a x b + bias,
// a [M, K] float16, b [K, N] (or [N, K] with attr trans_b) float16, bias [N] float32, split over
// `dim` AIV cores by MultiCoreMatmulTiling. Attr `which` (the tiling key) picks a misuse; 7 asks
// SetAlignSplit for shares in multiples of 64 x 64 (the kernel runs it as the plain key 1); 9
// binds the tiling data to the raw buffer with SetDataPtr and never calls SaveToBuffer (plain too);
// 10 and 11 ask a user workspace for a copy of A and for C; 15 builds the tiling object without a
// platform (plain in the kernel).
#include "hl_matmul_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const int64_t* which = context->GetAttrs()->GetInt(0);
    const int64_t* dim = context->GetAttrs()->GetInt(1);
    const int64_t* transB = context->GetAttrs()->GetInt(2);
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape& a = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& b = context->GetInputShape(1)->GetStorageShape();
    const int32_t m = a.GetDim(0), k = a.GetDim(1), n = *transB ? b.GetDim(0) : b.GetDim(1);
    // 15: constructed without a platform, as cann-ops' MatmulApiConstant: the SoC of this tiling call
    MultiCoreMatmulTiling tiling = *which == 15 ? MultiCoreMatmulTiling() : MultiCoreMatmulTiling(platform);
    tiling.SetDim(static_cast<int32_t>(*dim));
    tiling.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    tiling.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16, *transB != 0);
    tiling.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiling.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiling.SetShape(m, n, k);
    tiling.SetOrgShape(m, n, k);
    tiling.SetBias(true);
    if (*which == 7) {
        tiling.SetAlignSplit(64, 64, -1);
    }
    HlMatmulTilingData data;
    if (*which == 9) {
        data.SetDataPtr(context->GetRawTilingData()->GetData());
    }
    if (tiling.GetTiling(data.cube) == -1) {
        return ge::GRAPH_FAILED;
    }
    data.set_transB(static_cast<int32_t>(*transB));
    // a mixed kernel: each AI core runs the body on two AIV cores
    context->SetBlockDim((data.cube.get_usedCoreNum() + 1) / 2);
    context->SetTilingKey(static_cast<uint64_t>(*which));
    if (*which != 9) {
        data.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    }
    context->GetRawTilingData()->SetDataSize(data.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize();
    if (*which == 10 || *which == 11) {
        ws[0] += static_cast<size_t>(m) * k * 2 + static_cast<size_t>(m) * n * 4;
    }
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class HlMatmul : public OpDef {
public:
    explicit HlMatmul(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("which").AttrType(REQUIRED).Int();
        this->Attr("dim").AttrType(REQUIRED).Int();
        this->Attr("trans_b").AttrType(REQUIRED).Int();
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(HlMatmul);
}  // namespace ops
