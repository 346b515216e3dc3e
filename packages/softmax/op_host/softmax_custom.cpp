/*
 * SoftmaxCustom host side: tiling, shape/dtype inference and the operator prototype.
 *
 * y = exp(x - max(x)) / sum(exp(x - max(x))) over the last axis of x, in float16 or float32.
 * Subtracting the row maximum first keeps exp() from overflowing; the kernel computes in float
 * for both dtypes, so float16 rows lose nothing in the exponentials or the sum.
 */
#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "softmax_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_BYTES = 32;       // DataCopy moves whole 32-byte blocks
constexpr uint32_t REPEAT_BYTES = 256;     // one vector repeat
constexpr uint32_t BUFFER_NUM = 2;         // must match the kernel: double-buffered x and y
constexpr uint32_t STAT_BYTES = BLOCK_BYTES;   // the kernel's one-block scalar buffer

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

static uint32_t AlignUp(uint32_t n, uint32_t to)
{
    return (n + to - 1) / to * to;
}

// Work space the kernel's reductions need for `count` floats, in whole blocks: ReduceMax leaves a
// (value, index) pair per repeat even without calIndex (ReduceSum needs half of that).
static uint32_t ReduceWorkLength(uint32_t count)
{
    const uint32_t perRepeat = REPEAT_BYTES / sizeof(float);
    const uint32_t repeats = (count + perRepeat - 1) / perRepeat;
    return AlignUp(2 * repeats, BLOCK_BYTES / sizeof(float));
}

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::StorageShape *xShape = context->GetInputShape(0);
    if (xShape == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const gert::Shape &x = xShape->GetStorageShape();
    if (x.GetDimNum() < 1) {
        std::fprintf(stderr, "SoftmaxCustom: x must have at least one axis\n");
        return ge::GRAPH_FAILED;
    }
    const int64_t rowLength = x.GetDim(x.GetDimNum() - 1);
    const int64_t rowNum = rowLength > 0 ? x.GetShapeSize() / rowLength : 0;
    const uint32_t typeSize = TypeSize(context->GetInputDesc(0)->GetDataType());
    if (typeSize == 0) {
        std::fprintf(stderr, "SoftmaxCustom: x must be float16 or float32\n");
        return ge::GRAPH_FAILED;
    }
    if (rowLength <= 0 || rowNum <= 0 || rowNum > UINT32_MAX || rowLength > UINT32_MAX) {
        std::fprintf(stderr, "SoftmaxCustom: x must have between 1 and 2^32-1 rows of 1 to 2^32-1 elements\n");
        return ge::GRAPH_FAILED;
    }

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint64_t coreNum = std::max<uint64_t>(ascendcPlatform.GetCoreNumAiv(), 1);

    // One whole row must sit in UB: x and y queues in the dtype, a float copy of the row, the
    // reduction work buffer and one block for the row statistics.
    const uint32_t rowAligned = AlignUp(static_cast<uint32_t>(rowLength), BLOCK_BYTES / typeSize);
    const uint32_t rowAlignedF = AlignUp(static_cast<uint32_t>(rowLength), BLOCK_BYTES / sizeof(float));
    const uint32_t workLength = ReduceWorkLength(static_cast<uint32_t>(rowLength));
    const uint64_t ubNeed = 2ULL * BUFFER_NUM * rowAligned * typeSize + static_cast<uint64_t>(rowAlignedF) * sizeof(float) +
                            static_cast<uint64_t>(workLength) * sizeof(float) + STAT_BYTES;
    if (ubNeed > ubSize) {
        std::fprintf(stderr, "SoftmaxCustom: a row of H = %lld needs %llu bytes of UB, the SoC has %llu\n",
            static_cast<long long>(rowLength), static_cast<unsigned long long>(ubNeed),
            static_cast<unsigned long long>(ubSize));
        return ge::GRAPH_FAILED;
    }

    const uint64_t blockDim = std::min<uint64_t>(coreNum, static_cast<uint64_t>(rowNum));
    SoftmaxCustomTilingData tiling;
    tiling.set_rowNum(static_cast<uint32_t>(rowNum));
    tiling.set_rowLength(static_cast<uint32_t>(rowLength));
    tiling.set_rowAligned(rowAligned);
    tiling.set_formerNum(static_cast<uint32_t>(rowNum % blockDim));
    tiling.set_rowsPerCore(static_cast<uint32_t>(rowNum / blockDim));
    tiling.set_reduceWorkLength(workLength);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(static_cast<uint32_t>(blockDim));

    size_t *workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] = 0;  // no library API here needs a system workspace
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
class SoftmaxCustom : public OpDef {
public:
    explicit SoftmaxCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore()
            .SetTiling(optiling::TilingFunc)
            .AddConfig("ascend910b");
    }
};
OP_ADD(SoftmaxCustom);
} // namespace ops
