#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void ib_sync(GM_ADDR ws, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const int32_t idx = GetBlockIdx();
    const int32_t last = (int32_t)t.blocks - 1;
    TPipe pipe;
    TBuf<TPosition::VECCALC> ubBuf, rowBuf;
    pipe.InitBuffer(ubBuf, 32);
    pipe.InitBuffer(rowBuf, 32);
    GlobalTensor<int32_t> wsGm, zGm;
    wsGm.SetGlobalBuffer((__gm__ int32_t*)ws, t.blocks * 8 * 2);
    zGm.SetGlobalBuffer((__gm__ int32_t*)z, t.blocks * 8);
    LocalTensor<int32_t> ub = ubBuf.Get<int32_t>();
    LocalTensor<int32_t> row = rowBuf.Get<int32_t>();
    int32_t value = 100;
    if (TILING_KEY_IS(1)) {
        // forward: block i waits for block i - 1 and adds one to its row
        if (idx > 0) {
            IBWait(wsGm, ub, idx - 1, 0);
            value = zGm.GetValue((idx - 1) * 8) + 1;
        }
    } else if (TILING_KEY_IS(2)) {
        // backward: block i waits for block i + 1 (block 0 waits: the launch runs concurrently)
        if (idx < last) {
            IBWait(wsGm, ub, idx + 1, 1);
            value = zGm.GetValue((idx + 1) * 8) + 1;
        }
    } else if (TILING_KEY_IS(3)) {
        if (idx == 1) {
            IBWait(wsGm, ub, 3, 0);  // @never-set
        }
    }
    Duplicate(row, value, 8);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(zGm[idx * 8], row, 8);
    PipeBarrier<PIPE_ALL>();
    if (TILING_KEY_IS(1)) {
        IBSet(wsGm, ub, idx, 0);
    } else if (TILING_KEY_IS(2)) {
        IBSet(wsGm, ub, idx, 1);
    }
}
