// Test operator for more of the host API ops-nn and opbase use: gert::Stride and the view
// queries of TilingContext (InputIsView, GetInputStride: opbase's atvoss tiling), StorageShape's
// GetShape and ==, fe::PlatformInfoManager (ops-nn InferShapes ask it for the SoC), acl/acl_rt.h's
// aclsysGetVersionNum, the node's output count in InferShape and InferDataType, SetLocalMemorySize,
// the registrations the sim accepts without running them (InferShapeRange, GenSimplifiedKey,
// OutputShapeDependOnCompute; an InferShapeRange against its context), GetFormat() as a
// StorageFormat, TypeUtils::DataTypeToAscendString, `string` unqualified as CANN's platform headers allow, and an IR
// prototype (graph/operator_reg.h) read on the host.
#include <set>
#include "repo_view_tiling.h"
#include "acl/acl_rt.h"
#include "exe_graph/runtime/stride.h"
#include "exe_graph/runtime/kernel_run_context.h"
#include "platform/platform_info.h"
#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "register/op_impl_registry.h"

namespace optiling {
static ge::graphStatus RepoViewTiling(gert::TilingContext* context)
{
    const gert::StorageShape* x = context->GetInputShape(0);
    gert::Stride stride = {8, 1};
    stride.AppendStride(1);
    // a contiguous input: no view, no stride, offset -1 (CANN's answers for a tensor without one)
    const bool view = context->InputIsView(0) || context->GetInputStride(0) != nullptr ||
                      context->GetInputOffset(0) != -1 || context->OutputIsView(0);
    fe::PlatformInfo platformInfo;
    fe::OptionalInfo optionalInfo;
    if (fe::PlatformInfoManager::Instance().GetPlatformInfoWithOutSocVersion(platformInfo, optionalInfo) != 0) {
        return ge::GRAPH_FAILED;
    }
    const string shortSoc = platformInfo.str_info.short_soc_version;
    const std::string dtypeName = ge::TypeUtils::DataTypeToAscendString(ge::DT_FLOAT).GetString();
    if (shortSoc.empty() || context->SetLocalMemorySize(0) != ge::GRAPH_SUCCESS || dtypeName != "DT_FLOAT" ||
        context->GetInputDesc(0)->GetFormat().GetStorageFormat() != ge::FORMAT_ND || ge::FORMAT_END != 55) {
        return ge::GRAPH_FAILED;
    }
    char pkg[] = "asc-devkit";
    int32_t version = 0;
    RepoViewTilingData tiling;
    tiling.set_total(static_cast<uint32_t>(x->GetStorageShape().GetShapeSize()));
    tiling.set_scale(static_cast<int32_t>(*context->GetAttrs()->GetAttrPointer<int64_t>(0)));
    tiling.set_isView(view ? 1 : 0);
    tiling.set_strideDims(static_cast<int32_t>(stride.GetDimNum() * 10 + stride.GetStride(0)));
    tiling.set_aiCoreCnt(static_cast<int32_t>(platformInfo.soc_info.ai_core_cnt));
    tiling.set_aclVersion(aclsysGetVersionNum(pkg, &version) == ACL_SUCCESS ? version : -1);
    tiling.set_sameShape(*x == *context->GetOutputShape(0) && x->GetShape() == x->GetOriginShape() ? 1 : 0);
    tiling.set_protoAttr(static_cast<int32_t>(ge::op::RepoView::default_attr_axes().size()));
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_OPTILING(RepoView).Tiling(RepoViewTiling);
}  // namespace optiling

namespace ops {
static ge::graphStatus RepoViewInferShape(gert::InferShapeContext* context)
{
    // ops-nn's foreach InferShape walks the node's outputs by count
    if (context->GetComputeNodeOutputNum() != 2) return ge::GRAPH_FAILED;
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    gert::Shape* info = context->GetOutputShape(1);
    info->SetDimNum(0);
    info->AppendDim(8);
    return ge::GRAPH_SUCCESS;
}
static ge::graphStatus RepoViewInferDataType(gert::InferDataTypeContext* context)
{
    if (context->GetComputeNodeOutputNum() != 2 || context->GetIrInputInstanceInfo(0)->GetInstanceNum() != 1) {
        return ge::GRAPH_FAILED;
    }
    context->SetOutputDataType(0, context->GetInputDataType(0));
    context->SetOutputDataType(1, ge::DT_INT32);
    return ge::GRAPH_SUCCESS;
}
// registered and never run (the sim runs static shapes); it has to compile against the context
static ge::graphStatus RepoViewInferShapeRange(gert::InferShapeRangeContext* context)
{
    const gert::Range<gert::Shape>* x = context->GetInputShapeRange(0);
    gert::Range<gert::Shape>* y = context->GetOutputShapeRange(0);
    if (x == nullptr || y == nullptr) return ge::GRAPH_FAILED;
    *y->GetMax() = *x->GetMax();
    *y->GetMin() = *x->GetMin();
    return ge::GRAPH_SUCCESS;
}
static ge::graphStatus RepoViewSimplifiedKey(gert::TilingContext*, ge::char_t*) { return ge::GRAPH_FAILED; }
IMPL_OP_INFERSHAPE(RepoView)
    .InferShape(RepoViewInferShape)
    .InferDataType(RepoViewInferDataType)
    .InferShapeRange(RepoViewInferShapeRange)
    .OutputShapeDependOnCompute({1});
IMPL_OP_OPTILING(RepoView).GenSimplifiedKey(RepoViewSimplifiedKey);

class RepoView : public OpDef {
public:
    explicit RepoView(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("info").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Attr("scale").AttrType(REQUIRED).Int();
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(RepoView);
}  // namespace ops
