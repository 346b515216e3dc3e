// Test operator for the host APIs cann-ops tiling code calls beyond PlatformAscendC:
// fe::PlatFormInfos (platform/platform_info.h), the packed-format helpers of graph/types.h, the
// log and error-report entry points (base/alog_pub.h, base/err_msg.h), securec.h, and a tiling
// registered with IMPL_OP_OPTILING(...).TilingInputsDataDependency reading an input's values,
// a TilingParse filling the compile info tiling reads, the graph API's ge::Operator and
// ge::Tensor, and what CANN's headers include for their users (std::unique_ptr, std::transform).
#include <string>
#include "host_api_tiling.h"
#include "base/alog_pub.h"
#include "base/err_msg.h"
#include "securec.h"
#include "tiling/tiling_api.h"

namespace optiling {
struct HostApiCompileInfo {
    uint32_t coreNum = 0;
};

static ge::graphStatus HostApiTilingParse(gert::TilingParseContext* context)
{
    HostApiCompileInfo* info = context->GetCompiledInfo<HostApiCompileInfo>();
    if (info == nullptr || context->GetPlatformInfo() == nullptr) {
        return ge::GRAPH_FAILED;
    }
    info->coreNum = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAic();
    return ge::GRAPH_SUCCESS;
}

// A helper written against the graph API, as cann-ops LinSpace keeps one.
static uint32_t NameLength(const ge::Operator& op, const ge::Tensor& t)
{
    ge::AscendString name;
    (void)op.GetName(name);
    // map and string unqualified, as cann-ops' ge_glu_grad_v2.cpp writes them: CANN's
    // platform/platform_info.h (included by the tiling header) brings them along
    static const map<string, uint32_t> extra = {{"none", 0}};
    // a node's descs and attrs, as cann-ops ReverseSequence's CheckSupported reads them: this
    // Operator is in no graph, so the desc is empty and the attr missing (adds nothing)
    int64_t seqDim = 0;
    uint32_t graphPart = static_cast<uint32_t>(op.GetInputDescByName("x").GetShape().GetDimNum() +
                                               op.GetOutputDescByName("y").GetShape().GetDimNum()) +
                         (op.GetAttr("seq_dim", seqDim) == ge::GRAPH_FAILED ? 0 : 100);
    return static_cast<uint32_t>(name.GetLength() + t.GetSize()) + extra.at("none") + graphPart;
}

static ge::graphStatus HostApiTilingFunc(gert::TilingContext* context)
{
    fe::PlatFormInfos* platform = context->GetPlatformInfo();
    uint64_t ub = 0;
    platform->GetLocalMemSize(fe::LocalMemType::UB, ub);
    std::map<std::string, std::string> socInfo;
    if (!platform->GetPlatformRes("SoCInfo", socInfo)) {
        return ge::GRAPH_FAILED;
    }
    // not ValueDepend in the OpDef: its values come from TilingInputsDataDependency({1})
    const gert::Tensor* n = context->GetInputTensor(1);
    if (n == nullptr || n->GetData<int32_t>() == nullptr) {
        REPORT_INNER_ERR_MSG("EZ9999", "input n has no values at tiling (%d)", 1);
        return ge::GRAPH_FAILED;
    }
    HostApiTiling t(context);
    t.Fill(platform->GetCoreNum(), platform_ascendc::PlatformAscendC(platform).GetCoreNum(), ub,
           static_cast<uint32_t>(std::stoul(socInfo.at("vector_core_cnt"))), n->GetData<int32_t>()[0]);
    int32_t packed = ge::GetFormatFromSub(ge::FORMAT_FRACTAL_Z, 3);
    t.Data().set_primaryFormat(ge::GetPrimaryFormat(packed));
    t.Data().set_subFormat(ge::GetSubFormat(packed));
    char label[8];
    t.Data().set_printed(snprintf_s(label, sizeof(label), sizeof(label) - 1, "%s", "abcdefghij"));
    t.Data().set_label(reinterpret_cast<const uint8_t*>(label));
    char small[4];
    t.Data().set_copyStatus(memcpy_s(small, sizeof(small), label, sizeof(label)));
    t.Data().set_logLevels(AlogCheckDebugLevel(OP, DLOG_ERROR) * 10 + AlogCheckDebugLevel(OP, DLOG_DEBUG));
    const HostApiCompileInfo* info = context->GetCompileInfo<HostApiCompileInfo>();
    t.Data().set_parsedCoreNum(info != nullptr ? info->coreNum : 0);
    ge::Tensor tensor;
    uint8_t bytes[3] = {1, 2, 3};
    tensor.SetData(bytes, sizeof(bytes));
    t.Data().set_opNameLen(NameLength(ge::Operator("node1", "HostApi"), tensor));  // 5 + 3
    std::unique_ptr<std::string> mod(new std::string(OPS_UTILS_LOG_SUB_MOD_NAME));
    std::transform(mod->begin(), mod->end(), mod->begin(), [](char c) { return c; });
    t.Data().set_modNameLen(static_cast<uint32_t>(mod->size()));
    // the optional bias this case leaves out has no desc
    t.Data().set_biasAbsent(context->GetOptionalInputDesc(2) == nullptr && context->GetInputDesc(2) == nullptr);
    // Ascend 950 host calls ops-nn's arch35 tiling makes: no input is a view (the sim's tensors are
    // contiguous), gert::Stride as tiling code fills it, the SIMT local memory size, the origin
    // shape as GetShape, and ::ceil without <cmath> (CANN's headers bring it)
    gert::Stride stride{4, 1};
    stride.AppendStride(7);
    stride.SetStride(0, 5);
    const bool noView = !context->InputIsView(0) && context->GetInputStride(0) == nullptr;
    const bool strideOk = stride.GetDimNum() == 3 && stride[0] == 5 && stride.GetStride(2) == 7 &&
                          stride != gert::Stride{5, 1};
    const bool shapeOk = context->GetInputShape(0)->GetShape().GetDimNum() == 1;
    const bool localOk = context->SetLocalMemorySize(4096) == ge::GRAPH_SUCCESS;
    t.Data().set_views(noView * 1 + strideOk * 10 + shapeOk * 100 + localOk * 1000 +
                       static_cast<uint32_t>(ceil(2.5)) * 10000);
    // the platform config's intrinsic map, as ops-nn's matmul tilings read it (Fixpipe out of L0C;
    // a bias table taking bf16): the value's length, bf16 found (100), the label's entries (1000s)
    std::string l0c2out, l12bt;
    std::map<std::string, std::string> intrinsics;
    platform->GetPlatformRes("AICoreintrinsicDtypeMap", "Intrinsic_fix_pipe_l0c2out", l0c2out);
    platform->GetPlatformRes("AICoreintrinsicDtypeMap", "Intrinsic_data_move_l12bt", l12bt);
    platform->GetPlatformRes("AICoreintrinsicDtypeMap", intrinsics);
    t.Data().set_intrinsics(static_cast<uint32_t>(l0c2out.size() + 100 * (l12bt.find("bf16") != std::string::npos) +
                                                  1000 * intrinsics.size()));
    context->SetBlockDim(1);
    t.Save();
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_OPTILING(HostApi)
    .Tiling(HostApiTilingFunc)
    .TilingParse<HostApiCompileInfo>(HostApiTilingParse)
    .TilingInputsDataDependency({1}, {gert::TILING_ON_HOST});
}  // namespace optiling

// InferShape and InferDataType registered the other way CANN has, as cann-ops' gelu_quant_def.cpp
// and cross_entropy_loss_proto.cpp do (the OpDef sets none): y holds x's element count
// doubled, plus one with a bias, plus n's first value when the caller gave n's values (its
// InputsDataDependency; a shape alone has none), as int64
namespace ops {
static ge::graphStatus HostApiInferShape(gert::InferShapeContext* context)
{
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(0);
    // bias (input 2) is optional: its shape is null when the node has none
    const int32_t* n = context->GetInputTensor(1)->GetData<int32_t>();
    y->AppendDim(context->GetInputShape(0)->GetShapeSize() * 2 + (context->GetInputShape(2) != nullptr ? 1 : 0) +
                 (n != nullptr ? n[0] : 0));
    return ge::GRAPH_SUCCESS;
}
static ge::graphStatus HostApiInferDataType(gert::InferDataTypeContext* context)
{
    // int64 from a float x, read by IR index as ops-nn's 950 graph inference reads it
    context->SetOutputDataType(0, context->GetRequiredInputDataType(0) == ge::DT_FLOAT ? ge::DT_INT64 : ge::DT_UNDEFINED);
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_INFERSHAPE(HostApi).InferShape(HostApiInferShape).InferDataType(HostApiInferDataType).InputsDataDependency({1});

class HostApi : public OpDef {
public:
    explicit HostApi(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("n").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(OPTIONAL).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        // the framework zeroes y before the kernel (the kernel writes its first 16 elements)
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_INT64}).Format({ge::FORMAT_ND}).InitValue(0);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(HostApi);
}  // namespace ops
