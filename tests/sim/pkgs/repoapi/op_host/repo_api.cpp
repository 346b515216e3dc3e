// Test operator for the host API of current CANN that Huawei's operator repositories (ops-nn and
// its base library opbase) use, at the paths CANN installs: platform/platform_ascendc.h and
// platform/soc_spec.h (NpuArch, GetCurNpuArch, CalcTschNumBlocks), runtime/infer_shape_context.h,
// TilingContext::GetRequiredInputShape, the tiling-key templates (GET_TPL_TILING_KEY), CANN's log
// library as opbase's log/log.h calls it (CheckLogLevel, DlogRecord, declared by the caller), and
// base/err_msg.h's REG_FORMAT_ERROR_MSG / REPORT_PREDEFINED_ERR_MSG.
#include <string>
#include <vector>
#include "repo_api_tiling.h"
#include "op_kernel/repo_api_tiling_key.h"
#include "platform/platform_ascendc.h"
#include "platform/soc_spec.h"
#include "runtime/infer_shape_context.h"
#include "register/op_def_registry.h"
#include "register/op_impl_registry.h"
#include "base/err_msg.h"

// as opbase's log/log.h declares CANN's log entry points
extern "C" {
int32_t CheckLogLevel(int32_t moduleId, int32_t logLevel);
void DlogRecord(int32_t moduleId, int32_t level, const char* fmt, ...);
}

namespace {
const std::string kErrorTable = R"({"error_info_list": []})";
REG_FORMAT_ERROR_MSG(kErrorTable.c_str(), kErrorTable.length());
}  // namespace

namespace optiling {
using namespace RepoApiOp;

static ge::graphStatus RepoApiTiling(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const NpuArch arch = platform.GetCurNpuArch();
    const int64_t* scale = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    const int64_t* maskLen = context->GetAttrs()->GetAttrPointer<int64_t>(1);
    const uint64_t key = GET_TPL_TILING_KEY(static_cast<uint64_t>(*scale), *maskLen > 0 ? 1UL : 0UL);
    if (CheckLogLevel(63, 3) == 1) {
        DlogRecord(63, 3, "[RepoApi] arch %u key %llu", static_cast<uint32_t>(arch),
                   static_cast<unsigned long long>(key));
    }
    if (key == INVALID_TILING_KEY) {
        const std::string value = std::to_string(*scale);
        std::vector<const char*> keys = {"param", "value"};
        std::vector<const char*> values = {"scale", value.c_str()};
        REPORT_PREDEFINED_ERR_MSG("EZ0002", keys, values);
    }
    RepoApiTilingData tiling;
    tiling.set_total(static_cast<uint32_t>(context->GetRequiredInputShape(0)->GetStorageShape().GetShapeSize()));
    tiling.set_npuArch(static_cast<uint32_t>(arch));
    tiling.set_maskLen(static_cast<uint32_t>(*maskLen));
    context->SetTilingKey(key);
    context->SetBlockDim(platform.CalcTschNumBlocks(1, 0, platform.GetCoreNumAiv()));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_OPTILING(RepoApi).Tiling(RepoApiTiling);
}  // namespace optiling

namespace ops {
static ge::graphStatus RepoApiInferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetRequiredInputShape(0);
    gert::Shape* info = context->GetOutputShape(1);
    info->SetDimNum(0);
    info->AppendDim(8);
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_INFERSHAPE(RepoApi).InferShape(RepoApiInferShape);

class RepoApi : public OpDef {
public:
    explicit RepoApi(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("info").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Attr("scale").AttrType(REQUIRED).Int();
        this->Attr("mask_len").AttrType(OPTIONAL).Int(0);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(RepoApi);
}  // namespace ops
