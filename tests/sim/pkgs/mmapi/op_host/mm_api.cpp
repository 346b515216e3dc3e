// Test operator for the breadth of the Matmul API (hl_matmul.h, host_matmul_tiling.h): c = a x b
// (+ bias) over `batch` batches, a [batch, M, K] float16, b [batch, K, N] float16 (int8 w in its
// place for the anti-quantisation keys 5 and 6), v the anti-quantisation offsets and scales.
// Keys below 100 run the kernel (see op_kernel/mm_api.cpp); keys from 100 exercise the host's
// tiling classes only and record what their getters return in `got`:
//   100 MatmulApiTiling with SetSplitRange, SetDoubleBuffer, SetTraverse, SetMadType, EnableBias,
//       SetBufferSpace; got = GetBaseM/N/K, then MatmulGetTmpBufSize's and its V2's ub/l1/l0c (the
//       V2 forms on CANN's plain ::TCubeTiling, filled by GetTiling's other overload)
//   101 SetSplitRange with a minimum above its maximum (GetTiling fails)
//   102 MultiCoreMatmulTiling over 8 cores with SetSingleRange(32, 32), split K allowed; got =
//       GetSingleShape, GetCoreNum, MultiCoreMatmulGetTmpBufSize(V2)'s l1 and l0c
//   103 BatchMatmulTiling: SetBatchInfoForNormal, SetBatchNum, explicit layouts; got = GetCoreNum,
//       BatchMatmulGetTmpBufSize(V2)'s l1
//   104 SetSparse(true) with float16 A and B (GetTiling fails: sparse is int8 only)
//   105 SetMatmulConfigParams (both forms) choosing FIRSTN, SetDequantType, SetFixSplit
//   106 MultiCoreMatmulTiling with SetSingleShape(32, 48): one core's share fixed
//   107 the context's InputIsView family (got[0..3]) and 1 in got[4]
//   108 A of DT_FLOAT8_E5M2 (a later release's type): GetTiling fails
//   109 GetCoreMemSize of L2, L1 and L0C in KiB (got[0..2]), as MatMulV3's tiling asks them
#include "mm_api_tiling.h"
#include "register/op_def_registry.h"
#include "register/op_impl_registry.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
static void Types(MatmulApiTilingBase& t, bool int8B)
{
    t.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    t.SetBType(TPosition::GM, CubeFormat::ND,
               int8B ? matmul_tiling::DataType::DT_INT8 : matmul_tiling::DataType::DT_FLOAT16);
    t.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    t.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
}

// The MultiCoreMatmulTiling of keys 102 and 106: 8 cores over m x n x k.
static void MultiCore(MultiCoreMatmulTiling& t, int32_t m, int32_t n, int32_t k)
{
    Types(t, false);
    t.SetDim(8);
    t.SetShape(m, n, k);
    t.SetOrgShape(m, n, k);
}

static int64_t HostOnly(int64_t which, const gert::TilingContext* context,
                        const platform_ascendc::PlatformAscendC& platform, int32_t m, int32_t n, int32_t k,
                        int32_t batch, MmApiTilingData& data)
{
    int32_t got[16] = {};
    SysTilingTempBufSize buf, buf2;
    if (which == 109) {
        uint64_t l2 = 0, l1 = 0, l0c = 0;
        platform.GetCoreMemSize(platform_ascendc::CoreMemType::L2, l2);
        platform.GetCoreMemSize(platform_ascendc::CoreMemType::L1, l1);
        platform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, l0c);
        got[0] = static_cast<int32_t>(l2 / 1024);
        got[1] = static_cast<int32_t>(l1 / 1024);
        got[2] = static_cast<int32_t>(l0c / 1024);
    } else if (which == 107) {
        got[0] = context->InputIsView(0);
        got[1] = context->RequiredInputIsView(1);
        got[2] = context->OptionalInputIsView(2);
        got[3] = context->DynamicInputIsView(3, 0);
        got[4] = 1;
    } else if (which == 108) {
        MatmulApiTiling t(platform);
        Types(t, false);
        t.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT8_E5M2);
        t.SetShape(m, n, k);
        return t.GetTiling(data.cube);
    } else if (which == 100 || which == 101 || which == 104 || which == 105) {
        MatmulApiTiling t(platform);
        Types(t, false);
        t.SetShape(m, n, k);
        t.SetOrgShape(m, n, k);
        if (which == 100) {
            t.SetSplitRange(64, 32, 32);
            t.SetDoubleBuffer(false, true, true, false);
            t.SetTraverse(MatrixTraverse::FIRSTN);
            t.SetMadType(MatrixMadType::HF32);
            t.EnableBias(true);
            t.SetBufferSpace(-1, -1, -1);
        } else if (which == 101) {
            t.SetSplitRange(32, -1, -1, 64);
        } else if (which == 104) {
            t.SetSparse(true);
        } else {
            t.SetMatmulConfigParams(0, false, ScheduleType::INNER_PRODUCT, MatrixTraverse::FIRSTM);
            t.SetMatmulConfigParams(MatmulConfigParams(1, false, ScheduleType::INNER_PRODUCT, MatrixTraverse::FIRSTN));
            t.SetDequantType(DequantType::TENSOR);
            t.SetFixSplit(32, 48, 32);
        }
        if (t.GetTiling(data.cube) == -1) return -1;
        got[0] = t.GetBaseM();
        got[1] = t.GetBaseN();
        got[2] = t.GetBaseK();
        ::TCubeTiling plain;   // CANN's plain struct (kernel_tiling/kernel_tiling.h), filled by the same split
        if (t.GetTiling(plain) == -1) return -1;
        if (MatmulGetTmpBufSize(data.cube, buf) != 0 || MatmulGetTmpBufSizeV2(plain, buf2) != 0) return -1;
        got[3] = buf.ubSize;
        got[4] = buf.l1Size;
        got[5] = buf.l0cSize;
        got[6] = buf2.ubSize;
        got[7] = buf2.l1Size;
        got[8] = buf2.l0cSize;
    } else if (which == 102) {
        MultiCoreMatmulTiling t(platform);
        MultiCore(t, m, n, k);
        t.SetSingleRange(32, 32);
        t.EnableMultiCoreSplitK(true);
        t.SetSplitK(true);
        if (t.GetTiling(data.cube) == -1) return -1;
        t.GetSingleShape(got[0], got[1], got[2]);
        t.GetCoreNum(got[3], got[4], got[5]);
        ::TCubeTiling plain;
        if (t.GetTiling(plain) == -1) return -1;
        if (MultiCoreMatmulGetTmpBufSize(data.cube, buf) != 0 || MultiCoreMatmulGetTmpBufSizeV2(plain, buf2) != 0) {
            return -1;
        }
        got[6] = buf.l1Size;
        got[7] = buf2.l0cSize;
    } else if (which == 106) {
        MultiCoreMatmulTiling t(platform);
        MultiCore(t, m, n, k);
        t.SetSingleShape(32, 48);
        if (t.GetTiling(data.cube) == -1) return -1;
        t.GetCoreNum(got[0], got[1], got[2]);
    } else if (which == 103) {
        BatchMatmulTiling t(platform);
        Types(t, false);
        t.SetBatchInfoForNormal(batch, batch, m, n, k);
        t.SetBatchNum(batch);
        t.SetALayout(batch, m, 1, 1, k);
        t.SetBLayout(batch, n, 1, 1, k);
        t.SetCLayout(batch, m, 1, 1, n);
        if (t.GetTiling(data.cube) == -1) return -1;
        t.GetCoreNum(got[0], got[1], got[2], got[3], got[4]);
        ::TCubeTiling plain;
        if (t.GetTiling(plain) == -1) return -1;
        if (BatchMatmulGetTmpBufSize(data.cube, buf) != 0 || BatchMatmulGetTmpBufSizeV2(plain, buf2) != 0) {
            return -1;
        }
        got[5] = buf.l1Size;
        got[6] = buf2.l1Size;
    }
    data.set_got(got);
    return 0;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const int64_t which = *context->GetAttrs()->GetInt(0);
    const int32_t m = static_cast<int32_t>(*context->GetAttrs()->GetInt(1));
    const int32_t n = static_cast<int32_t>(*context->GetAttrs()->GetInt(2));
    const int32_t k = static_cast<int32_t>(*context->GetAttrs()->GetInt(3));
    const int32_t batch = static_cast<int32_t>(*context->GetAttrs()->GetInt(4));
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    MmApiTilingData data;
    data.set_batch(batch);
    if (which >= 100) {
        if (HostOnly(which, context, platform, m, n, k, batch, data) == -1) return ge::GRAPH_FAILED;
    } else {
        MatmulApiTiling t(platform);
        Types(t, which == 5 || which == 6);
        t.SetShape(m, n, k);
        t.SetOrgShape(m, n, k);
        if (batch > 1) t.SetBatchInfoForNormal(batch, batch, m, n, k);
        if (which == 4 || which == 21 || which == 22) t.SetFixSplit(16, 16, -1);   // several base blocks to iterate over
        if (which == 8 || which == 9) t.SetBias(true);
        if (t.GetTiling(data.cube) == -1) return ge::GRAPH_FAILED;
    }
    context->SetBlockDim(which == 27 ? 4 : 1);   // 27: four AI cores
    context->SetTilingKey(static_cast<uint64_t>(which));
    data.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(data.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    // the library's share, then room for copies of A and B and for C
    ws[0] = platform.GetLibApiWorkSpaceSize() + static_cast<size_t>(batch) * (m * k * 2 + k * n * 2 + m * n * 4);
    return ge::GRAPH_SUCCESS;
}
// Shape ranges are for graph compilation: the registration is accepted and never called.
static ge::graphStatus InferShapeRange(gert::InferShapeRangeContext*) { return ge::GRAPH_FAILED; }
IMPL_OP_INFERSHAPE(MmApi).InferShapeRange(InferShapeRange);
}  // namespace optiling

namespace ops {
class MmApi : public OpDef {
public:
    explicit MmApi(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("w").ParamType(REQUIRED).DataType({ge::DT_INT8}).Format({ge::FORMAT_ND});
        this->Input("v").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("which").AttrType(REQUIRED).Int();
        this->Attr("m").AttrType(REQUIRED).Int();
        this->Attr("n").AttrType(REQUIRED).Int();
        this->Attr("k").AttrType(REQUIRED).Int();
        this->Attr("batch").AttrType(REQUIRED).Int();
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(MmApi);
}  // namespace ops
