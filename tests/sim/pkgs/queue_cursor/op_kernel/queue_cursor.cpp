// y = 2x + 1 through a VECOUT queue of two buffers: s = 2x is copied out to y, freed, and read
// again while the next tensor of the queue (y) is filled, as double-buffered kernels do. The
// device's queue hands its buffers out round-robin, so y is the other buffer and s still holds
// 2x (mode 0). Mode 1 takes one tensor more from the queue first: the cursor has come round to
// s's buffer, which AllocTensor hands out again, and the read of s is of a stale tile.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void queue_cursor(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 2> outQueue;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, t.length);
    yGm.SetGlobalBuffer((__gm__ float*)y, t.length);
    pipe.InitBuffer(inQueue, 1, t.length * sizeof(float));
    pipe.InitBuffer(outQueue, 2, t.length * sizeof(float));

    LocalTensor<float> xl = inQueue.AllocTensor<float>();
    DataCopy(xl, xGm, t.length);
    inQueue.EnQue(xl);
    xl = inQueue.DeQue<float>();
    LocalTensor<float> s = outQueue.AllocTensor<float>();
    Muls(s, xl, 2.0f, t.length);
    inQueue.FreeTensor(xl);
    outQueue.EnQue(s);
    LocalTensor<float> out = outQueue.DeQue<float>();
    DataCopy(yGm, out, t.length);
    outQueue.FreeTensor(out);
    if (TILING_KEY_IS(1)) {
        LocalTensor<float> other = outQueue.AllocTensor<float>();   // the second buffer
        outQueue.FreeTensor(other);
    }
    event_t id = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE3_V));
    SetFlag<HardEvent::MTE3_V>(id);
    WaitFlag<HardEvent::MTE3_V>(id);
    LocalTensor<float> yl = outQueue.AllocTensor<float>();
    Adds(yl, s, 1.0f, t.length);   // @read-freed
    outQueue.EnQue(yl);
    yl = outQueue.DeQue<float>();
    DataCopy(yGm, yl, t.length);   // @copy-out
    outQueue.FreeTensor(yl);
}
