// A mixed kernel on the sim's split launch: per AI core c (GetBlockIdx on the cube), 16 floats
// x[16c, 16c + 16). Keys:
// 1 (MIX_AIC_1_2): AIV s doubles its 8 floats into ws, CrossCoreSetFlag<2>(3); the AIC waits for
//   both AIVs, writes y = ws + 1 with scalar stores, CrossCoreSetFlag<2>(4); each AIV waits and
//   triples its half of y: y = (2x + 1) * 3.
// 2: key 1 with the AIC's set of flag 4 left out: the AIVs wait forever (a deadlock).
// 3 (MIX_AIC_1_1): one AIV per AI core (GetBlockIdx = the AI core) doubles all 16 floats; the
//   AIC waits for it alone: y = 2x + 1.
// 4 (MIX_AIC_1_2): the two AIVs of an AI core meet at a mode-1 flag, then each writes its half:
//   y = x + 10 * GetSubBlockIdx().
// 5 (MIX_AIC_1_2): each body writes where it runs: AIV at y[GetBlockIdx()] =
//   GetBlockIdx() + 10 * GetSubBlockIdx() + 1000 * GetBlockNum() + 10000 * GetTaskRation(); the AIC
//   at y[32 + GetBlockIdx()] = 500 + GetBlockIdx() + 10 * GetSubBlockIdx().
// 6: key 1's AIC waits for flag 3 a second time, which the AIVs set once.
// 7 (MIX_AIC_1_2): each body writes CoreMark() + its GetBlockIdx(), the AIVs at y[GetBlockIdx()],
//   the AICs at y[32 + GetBlockIdx()]: the cube bodies run the kernel's cube-core compile.
#include "kernel_operator.h"
using namespace AscendC;

// Differs between the kernel's two compiles (vector and cube core): each body must run its own
// (the linker must not fold one into the other).
[aicore] inline float CoreMark()   // bisheng's spelling of __aicore__ (ops-nn's pp_matmul headers)
{
#if defined(__DAV_C220_CUBE__)
    return 1000.0f;
#else
    return 2000.0f;
#endif
}

constexpr int32_t PER_CORE = 16;

extern "C" __global__ __aicore__ void cross_core(GM_ADDR x, GM_ADDR ws, GM_ADDR y, GM_ADDR workspace,
                                                 GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    KERNEL_TASK_TYPE(3, KERNEL_TYPE_MIX_AIC_1_1);
    GlobalTensor<float> xGm, wsGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x);
    wsGm.SetGlobalBuffer((__gm__ float*)ws);
    yGm.SetGlobalBuffer((__gm__ float*)y);
    if (TILING_KEY_IS(7)) {
        yGm.SetValue((ASCEND_IS_AIV ? 0 : 32) + GetBlockIdx(), CoreMark() + float(GetBlockIdx()));
        return;
    }
    if (TILING_KEY_IS(5)) {
        if ASCEND_IS_AIV {
            yGm.SetValue(GetBlockIdx(), float(GetBlockIdx() + 10 * GetSubBlockIdx() + 1000 * GetBlockNum() +
                                              10000 * GetTaskRation()));
        } else {
            yGm.SetValue(32 + GetBlockIdx(), float(500 + GetBlockIdx() + 10 * GetSubBlockIdx()));
        }
        return;
    }
    const int32_t per_aiv = PER_CORE / GetTaskRation();
    if ASCEND_IS_AIV {
        const int32_t core = GetBlockIdx() / GetTaskRation();
        const int32_t at = core * PER_CORE + GetSubBlockIdx() * per_aiv;
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, PER_CORE * sizeof(float));
        LocalTensor<float> u = buf.Get<float>();
        DataCopy(u, xGm[at], per_aiv);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        if (TILING_KEY_IS(4)) {
            CrossCoreSetFlag<1, PIPE_MTE2>(5);
            CrossCoreWaitFlag(5);
            Adds(u, u, float(10 * GetSubBlockIdx()), per_aiv);
            SetFlag<HardEvent::V_MTE3>(0);
            WaitFlag<HardEvent::V_MTE3>(0);
            DataCopy(yGm[at], u, per_aiv);
            return;
        }
        Muls(u, u, 2.0f, per_aiv);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(wsGm[at], u, per_aiv);
        CrossCoreSetFlag<2, PIPE_MTE3>(3);
        if (TILING_KEY_IS(3)) return;
        CrossCoreWaitFlag(4);   // @aiv-wait
        DataCopy(u, yGm[at], per_aiv);
        SetFlag<HardEvent::MTE2_V>(1);
        WaitFlag<HardEvent::MTE2_V>(1);
        Muls(u, u, 3.0f, per_aiv);
        SetFlag<HardEvent::V_MTE3>(1);
        WaitFlag<HardEvent::V_MTE3>(1);
        DataCopy(yGm[at], u, per_aiv);
        return;
    }
    // the cube body
    if (TILING_KEY_IS(4)) return;
    CrossCoreWaitFlag(3);
    if (TILING_KEY_IS(6)) CrossCoreWaitFlag(3);   // @second-wait
    const int32_t base = GetBlockIdx() * PER_CORE;
    for (int32_t i = 0; i < PER_CORE; ++i) yGm.SetValue(base + i, wsGm.GetValue(base + i) + 1.0f);
    if (!TILING_KEY_IS(2)) CrossCoreSetFlag<2, PIPE_S>(4);
}
