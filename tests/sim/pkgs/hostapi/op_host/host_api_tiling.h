// HostApi tiling: the struct and, as some cann-ops headers do, the host code that fills it. The
// kernel build reads this header too, so the host code must compile there (set_<f>, SaveToBuffer).
#ifndef HOST_API_TILING_H
#define HOST_API_TILING_H
#include <cstring>
#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"
#include "platform/platform_info.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(HostApiTilingData)
TILING_DATA_FIELD_DEF(uint32_t, coreNum);
TILING_DATA_FIELD_DEF(uint32_t, ascendcCoreNum);
TILING_DATA_FIELD_DEF(uint64_t, ubSize);
TILING_DATA_FIELD_DEF(uint32_t, vectorCoreCnt);
TILING_DATA_FIELD_DEF(int32_t, primaryFormat);
TILING_DATA_FIELD_DEF(int32_t, subFormat);
TILING_DATA_FIELD_DEF(int32_t, nValue);
TILING_DATA_FIELD_DEF(int32_t, printed);
TILING_DATA_FIELD_DEF(int32_t, copyStatus);
TILING_DATA_FIELD_DEF(int32_t, logLevels);
TILING_DATA_FIELD_DEF_ARR(uint8_t, 8, label);
TILING_DATA_FIELD_DEF(uint32_t, parsedCoreNum);
TILING_DATA_FIELD_DEF(uint32_t, opNameLen);
TILING_DATA_FIELD_DEF(uint32_t, modNameLen);
TILING_DATA_FIELD_DEF(uint32_t, biasAbsent);
TILING_DATA_FIELD_DEF(uint32_t, views);
TILING_DATA_FIELD_DEF(uint32_t, intrinsics);
// no semicolon, as cann-ops' ge_glu_grad_v2_tiling.h and reverse_sequence_tiling.h end theirs:
// CANN's macro closes the class itself
END_TILING_DATA_DEF
REGISTER_TILING_DATA_CLASS(HostApi, HostApiTilingData)

// host code naming ge's dtypes, as cann-ops' dequant_swiglu_quant_tiling.h has: the kernel build
// reads this header too, where DT_* are macros for `#if ORIG_DTYPE_X == DT_FLOAT16`
inline uint32_t HostApiBytesOf(ge::DataType dtype)
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

class HostApiTiling {
public:
    explicit HostApiTiling(gert::TilingContext* context) : context_(context) {}
    ge::graphStatus Fill(uint32_t coreNum, uint32_t ascendcCoreNum, uint64_t ubSize, uint32_t vectorCoreCnt,
                         int32_t nValue)
    {
        tiling_.set_coreNum(coreNum);
        tiling_.set_ascendcCoreNum(ascendcCoreNum);
        tiling_.set_ubSize(ubSize);
        tiling_.set_vectorCoreCnt(vectorCoreCnt);
        tiling_.set_nValue(nValue);
        return ge::GRAPH_SUCCESS;
    }
    HostApiTilingData& Data() { return tiling_; }
    void Save()
    {
        tiling_.SaveToBuffer(context_->GetRawTilingData()->GetData(), context_->GetRawTilingData()->GetCapacity());
        context_->GetRawTilingData()->SetDataSize(tiling_.GetDataSize());
    }

private:
    gert::TilingContext* context_;
    HostApiTilingData tiling_;
};
}  // namespace optiling
#endif
