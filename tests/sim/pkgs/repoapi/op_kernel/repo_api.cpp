// Test kernel for the kernel API Huawei's operator repositories use beyond the basic vector
// calls: a kernel written as a template over its tiling-key parameters (ASCENDC_TPL_*),
// AscendC::Std (min, max, ceil_division, ceil_align, type traits), AscendCUtils (SetMask in
// lanes, GetC0Count, GetBitSize) and the queues' other forms (AllocTensor(t), DeQue(t), DeQue()).
// y = x * SCALE; with MASKED, only the first mask_len lanes of every 64-float repeat are
// multiplied and the others keep -1. info holds what the helpers answered.
#include "kernel_operator.h"
#include "repo_api_tiling_key.h"

using namespace AscendC;

static_assert(AscendC::Std::is_floating_point_v<half> && !AscendC::Std::is_floating_point_v<int32_t>);
static_assert(AscendC::Std::is_integral_v<AscendC::Std::integral_constant<int, 3>>);
static_assert(AscendC::Std::is_same_v<AscendC::Std::remove_cvref_t<const float&>, float>);

template <uint64_t SCALE, bool MASKED>
__global__ __aicore__ void repo_api(GM_ADDR x, GM_ADDR y, GM_ADDR info, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    constexpr uint32_t kTile = 256;
    const uint32_t n = AscendC::Std::min(t.total, kTile);
    pipe.InitBuffer(inQueue, 1, kTile * sizeof(float));
    pipe.InitBuffer(outQueue, 1, kTile * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    GlobalTensor<int32_t> infoGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, n);
    yGm.SetGlobalBuffer((__gm__ float*)y, n);
    infoGm.SetGlobalBuffer((__gm__ int32_t*)info, 8);

    LocalTensor<float> xl;
    inQueue.AllocTensor(xl);
    DataCopy(xl, xGm, n);
    inQueue.EnQue(xl);
    inQueue.DeQue(xl);
    LocalTensor<float> yl = outQueue.AllocTensor<float>();
    if constexpr (MASKED) {
        Duplicate(yl, -1.0f, n);
        PipeBarrier<PIPE_V>();
        AscendCUtils::SetMask<float>(static_cast<int32_t>(t.maskLen));
        const uint8_t repeats = static_cast<uint8_t>(AscendC::Std::ceil_division(n, 64u));
        Muls<float, false>(yl, xl, static_cast<float>(SCALE), MASK_PLACEHOLDER, repeats, {1, 1, 8, 8});
        ResetMask();
    } else {
        Muls(yl, xl, static_cast<float>(SCALE), n);
    }
    outQueue.EnQue(yl);
    outQueue.DeQue();   // waits for the vector unit; the tensor is still yl
    DataCopy(yGm, yl, n);
    outQueue.FreeTensor(yl);
    inQueue.FreeTensor(xl);

    infoGm.SetValue(0, AscendCUtils::GetC0Count(sizeof(float)));
    infoGm.SetValue(1, AscendCUtils::GetBitSize(sizeof(half)));
    infoGm.SetValue(2, static_cast<int32_t>(AscendC::Std::max(3, 7.5) * 2));
    infoGm.SetValue(3, static_cast<int32_t>(AscendC::Std::ceil_align(13u, 8u)));
    infoGm.SetValue(4, static_cast<int32_t>(SCALE));
    infoGm.SetValue(5, MASKED ? 1 : 0);
    infoGm.SetValue(6, static_cast<int32_t>(t.npuArch));
    infoGm.SetValue(7, static_cast<int32_t>(n));
}
