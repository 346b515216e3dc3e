/*
 * LeakyReluCustom host side: tiling, shape/dtype inference and the operator prototype.
 *
 * y = x for x >= 0, x * negative_slope otherwise, element-wise over an ND tensor, in float16 or
 * float32; negative_slope is a float attribute read through GetAttrs().
 */
#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "leaky_relu_custom_tiling.h"
#include "opkg_common/elementwise_split.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;        // must match the kernel: double buffering
constexpr uint32_t QUEUE_NUM = 2;         // x in, y out
constexpr uint32_t TILES_PER_BUFFER = 4;  // aim for BUFFER_NUM * 4 tiles per core so copies overlap

static uint32_t TypeSize(ge::DataType dtype)
{
    switch (dtype) {
        case ge::DT_FLOAT16:
            return 2;
        case ge::DT_FLOAT:
            return 4;
        default:
            return 0;
    }
}

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::StorageShape *xShape = context->GetInputShape(0);
    if (xShape == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const uint64_t totalLength = xShape->GetStorageShape().GetShapeSize();
    const uint32_t typeSize = TypeSize(context->GetInputDesc(0)->GetDataType());
    if (typeSize == 0) {
        std::fprintf(stderr, "LeakyReluCustom: x must be float16 or float32\n");
        return ge::GRAPH_FAILED;
    }
    if (totalLength == 0 || totalLength > UINT32_MAX) {
        std::fprintf(stderr, "LeakyReluCustom: x must have between 1 and 2^32-1 elements\n");
        return ge::GRAPH_FAILED;
    }

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint64_t coreNum = std::max<uint64_t>(ascendcPlatform.GetCoreNumAiv(), 1);

    // whole 32-byte blocks across the cores, tiles that fit UB double-buffered: the split
    // every element-wise example shares (packages/common)
    opkg_common::ElementwiseSplit split;
    const bool fits = opkg_common::SplitElementwise(totalLength, typeSize, coreNum, ubSize,
        QUEUE_NUM, BUFFER_NUM, TILES_PER_BUFFER, split);
    if (!fits) {
        std::fprintf(stderr, "LeakyReluCustom: UB (%llu bytes) too small for one tile\n",
            static_cast<unsigned long long>(ubSize));
        return ge::GRAPH_FAILED;
    }

    LeakyReluCustomTilingData tiling;
    tiling.set_totalLength(static_cast<uint32_t>(totalLength));
    tiling.set_formerNum(split.formerNum);
    tiling.set_formerLength(split.formerLength);
    tiling.set_tailLength(split.tailLength);
    tiling.set_tileLength(split.tileLength);
    const float *negativeSlope = context->GetAttrs()->GetAttrPointer<float>(0);
    tiling.set_negativeSlope(negativeSlope != nullptr ? *negativeSlope : 0.01f);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(split.blockDim);

    size_t *workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] = 0;  // pure vector op: no library API needs a system workspace
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xShape = context->GetInputShape(0);
    gert::Shape *yShape = context->GetOutputShape(0);
    *yShape = *xShape;
    return GRAPH_SUCCESS;
}

static graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class LeakyReluCustom : public OpDef {
public:
    explicit LeakyReluCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.01f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore()
            .SetTiling(optiling::TilingFunc)

            .AddConfig("ascend910b");
    }
};
OP_ADD(LeakyReluCustom);
} // namespace ops
