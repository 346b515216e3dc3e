// Test operator for the temporary-space minimums of the normalization, quantization and pad
// libraries: the host asks each API's Get<Api>MaxMinTmpSize for the minimum and its tiling-info
// function for the tiling, as real operators do, and hands the kernel a sharedTmpBuffer of the
// minimum less `shrink` bytes. x is [8, 64]; z [8, 64] the API's result. One block.
#include <vector>
#include "hl_tmp_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const int64_t* which = context->GetAttrs()->GetInt(0);
    const int64_t* shrink = context->GetAttrs()->GetInt(1);
    if (which == nullptr || shrink == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t ts = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    const ge::Shape bsh(std::vector<int64_t>{2, 4, 64}), rows(std::vector<int64_t>{8, 64});
    const ge::Shape nchw(std::vector<int64_t>{2, 4, 8, 8}), bn(std::vector<int64_t>{8, 1, 64});
    const ge::Shape ori(std::vector<int64_t>{8, 50}), col(std::vector<int64_t>{8, 1});
    const ge::Shape flat(std::vector<int64_t>{512}), one(std::vector<int64_t>{1, 64});
    HlTmpTilingData tiling;
    uint32_t maxValue = 0, minValue = 0;
    bool ok = true;
    switch (*which) {
        case 1: AscendC::GetLayerNormMaxMinTmpSize(bsh, ts, false, maxValue, minValue);
                AscendC::GetLayerNormNDTilingInfo(bsh, minValue, ts, false, tiling.ln); break;
        case 2: ok = AscendC::GetRmsNormMaxMinTmpSize(bsh, ts, maxValue, minValue);
                ok = ok && AscendC::GetRmsNormTilingInfo(bsh, bsh, minValue, ts, tiling.rms); break;
        case 3: ok = AscendC::GetDeepNormMaxMinTmpSize(bsh, ts, false, false, maxValue, minValue);
                ok = ok && AscendC::GetDeepNormTilingInfo(bsh, bsh, minValue, ts, false, false, tiling.dn); break;
        case 4: ok = AscendC::GetBatchNormMaxMinTmpSize(bn, bn, ts, false, maxValue, minValue);
                ok = ok && AscendC::GetBatchNormNDTilingInfo(bn, bn, minValue, ts, false, tiling.bn); break;
        case 5: AscendC::GetGroupNormMaxMinTmpSize(nchw, ts, false, 2, maxValue, minValue);
                AscendC::GetGroupNormNDTilingInfo(nchw, minValue, ts, false, 2, tiling.gn); break;
        case 6: AscendC::GetLayerNormGradMaxMinTmpSize(bsh, ts, false, maxValue, minValue);
                AscendC::GetLayerNormGradNDTilingInfo(bsh, minValue, ts, false, tiling.lg); break;
        case 7: AscendC::GetLayerNormGradBetaMaxMinTmpSize(bsh, ts, false, maxValue, minValue);
                AscendC::GetLayerNormGradBetaNDTilingInfo(bsh, minValue, ts, false, tiling.lgb); break;
        case 8: AscendC::GetWelfordUpdateMaxMinTmpSize(one, ts, 4, false, false, maxValue, minValue); break;
        case 9: AscendC::GetAscendQuantMaxMinTmpSize(flat, ts, maxValue, minValue); break;
        case 10: AscendC::GetAscendDequantMaxMinTmpSize(rows, ts, maxValue, minValue); break;
        case 11: AscendC::GetAscendAntiQuantMaxMinTmpSize(rows, one, false, ge::DT_INT8, ge::DT_FLOAT16, maxValue,
                                                          minValue); break;
        case 12: AscendC::GetPadMaxMinTmpSize(rows, ts, maxValue, minValue);
                 AscendC::PadTilingFunc(rows, ori, minValue, ts, tiling.pad); break;
        case 13: {
            auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
            AscendC::GetUnPadMaxMinTmpSize(platform, rows, ts, maxValue, minValue);
            AscendC::UnPadTilingFunc(rows, minValue, ts, tiling.unpad);
            break;
        }
        case 14: {
            auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
            AscendC::GetBroadCastMaxMinTmpSize(platform, col, rows, ts, false, maxValue, minValue);
            break;
        }
        case 15: AscendC::GetNormalizeMaxMinTmpSize(rows, ts, ts, false, true, false, maxValue, minValue); break;
        case 16: AscendC::GetReduceXorSumMaxMinTmpSize(ge::Shape(std::vector<int64_t>{256}), 2, false, maxValue,
                                                       minValue); break;
        default: return ge::GRAPH_FAILED;
    }
    if (!ok || maxValue < minValue || minValue <= static_cast<uint32_t>(*shrink)) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_tmpBytes(minValue - static_cast<uint32_t>(*shrink));
    context->SetBlockDim(1);
    context->SetTilingKey(static_cast<uint64_t>(*which));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class HlTmp : public OpDef {
public:
    explicit HlTmp(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("which").AttrType(REQUIRED).Int();
        this->Attr("shrink").AttrType(REQUIRED).Int();
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(HlTmp);
}  // namespace ops
