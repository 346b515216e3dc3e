// TBufPool as ops-nn's fused_linear_cross_entropy_loss_grad uses it: two pools carved from the
// pipe, the second sharing the first's memory (InitBufPool(pool, len, shareBuf)), each handing
// out a queue and a TBuf in order. y = 2x + 1 through pool A; then pool B, sharing A's bytes,
// hands out its first buffer at A's start, which still holds A's queue tile (2x). `where` gets
// each buffer's byte offset from pool A's first one, and what B's first buffer reads.
// Mode 1: pool A hands out more than its length (an error at the InitBuffer).
// Mode 2: pool A is Reset and hands its first buffer out again from its start.
// Also the other devkit names ops-nn's 910B kernels use unqualified: WaitPreTaskEnd and
// SetNextTaskStart (a lone kernel's superkernel handshake), DEFAULT_BLK_STRIDE, FULL_MASK,
// ASCENDC_ASSERT/KERNEL_LOG, the cube unit-flag modes and topk's SIXTEEN.
#include "kernel_operator.h"
using namespace AscendC;

static_assert(DEFAULT_BLK_STRIDE == 1 && FULL_MASK == 0xffffffffffffffffULL, "devkit constants");
static_assert(UFMode2 == 2 && UFMode3 == 3 && SIXTEEN == 16, "unit flags, topk constants");

extern "C" __global__ __aicore__ void buf_pool(GM_ADDR x, GM_ADDR y, GM_ADDR where, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    WaitPreTaskEnd();
    ASCENDC_ASSERT(t.length > 0, { KERNEL_LOG(KERNEL_ERROR, "length %u", t.length); });
    TPipe pipe;
    TBufPool<TPosition::VECCALC> poolA;
    TBufPool<TPosition::VECCALC> poolB;
    TQue<TPosition::VECIN, 1> inQueue;
    TBuf<TPosition::VECCALC> tmp;
    TBuf<TPosition::VECCALC> first;
    GlobalTensor<float> xGm, yGm;
    GlobalTensor<int32_t> whereGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, t.length);
    yGm.SetGlobalBuffer((__gm__ float*)y, t.length);
    whereGm.SetGlobalBuffer((__gm__ int32_t*)where, 4);
    uint32_t bytes = t.length * sizeof(float);
    pipe.InitBufPool(poolA, 2 * bytes);
    pipe.InitBufPool(poolB, bytes, poolA);
    poolA.InitBuffer(inQueue, 1, bytes);
    poolA.InitBuffer(tmp, bytes);
    if (TILING_KEY_IS(1)) {
        TBuf<TPosition::VECCALC> extra;
        poolA.InitBuffer(extra, 32);   // @past-pool
    }
    LocalTensor<float> xl = inQueue.AllocTensor<float>();
    DataCopy(xl, xGm, t.length);
    inQueue.EnQue(xl);
    xl = inQueue.DeQue<float>();
    LocalTensor<float> s = tmp.Get<float>();
    Muls(xl, xl, 2.0f, t.length);
    Adds(s, xl, 1.0f, t.length);
    PipeBarrier<PIPE_V>();
    inQueue.FreeTensor(xl);
    event_t id = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
    SetFlag<HardEvent::V_MTE3>(id);
    WaitFlag<HardEvent::V_MTE3>(id);
    DataCopy(yGm, s, t.length);
    if (TILING_KEY_IS(2)) {
        poolA.Reset();
        poolA.InitBuffer(first, bytes);
    } else {
        poolB.InitBuffer(first, bytes);
    }
    LocalTensor<float> f = first.Get<float>();
    LocalTensor<float> base = xl;
    whereGm.SetValue(0, static_cast<int32_t>(reinterpret_cast<uintptr_t>(s.GetPhyAddr()) -
                                             reinterpret_cast<uintptr_t>(base.GetPhyAddr())));
    whereGm.SetValue(1, static_cast<int32_t>(reinterpret_cast<uintptr_t>(f.GetPhyAddr()) -
                                             reinterpret_cast<uintptr_t>(base.GetPhyAddr())));
    PipeBarrier<PIPE_ALL>();
    whereGm.SetValue(2, static_cast<int32_t>(f.GetValue(1)));
    whereGm.SetValue(3, static_cast<int32_t>(sizeof(decltype(poolA)) > 0));
    SetNextTaskStart();
}
