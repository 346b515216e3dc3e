// y = 3x + 1, tile by tile, with every kind of intra-core synchronisation: queues (x in, y out),
// flags around scalar accesses and a staging TBuf, or PipeBarrier<PIPE_ALL> instead of the flags
// (mode 9). Modes 1-8 each leave one synchronisation out (or, 8, read a buffer before writing it
// in this tile); the result is right in program order, so only --sync-check (1-7) or the stale
// UB check (8) can tell.
#include "kernel_operator.h"
using namespace AscendC;

class KernelHazards {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t length, uint32_t tileLength)
    {
        length_ = length;
        tile_ = tileLength;
        xGm.SetGlobalBuffer((__gm__ float*)x + GetBlockIdx() * length, length);
        yGm.SetGlobalBuffer((__gm__ float*)y + GetBlockIdx() * length, length);
        pipe.InitBuffer(inQueueX, 1, tile_ * sizeof(float));
        pipe.InitBuffer(outQueueY, 1, tile_ * sizeof(float));
        pipe.InitBuffer(oneBuf, tile_ * sizeof(float));
        pipe.InitBuffer(stageBuf, tile_ * sizeof(float));   // @init-stage
    }
    __aicore__ inline void Run()
    {
        for (uint32_t t = 0; t * tile_ < length_; ++t) {
            CopyIn(t);
            Compute(t);
            CopyOut(t);
        }
    }

private:
    // Pipe `evt`'s source before its destination: a flag pair, or a full barrier in mode 9.
    template <HardEvent evt>
    __aicore__ inline void Order(bool skip = false)
    {
        if (skip) return;
        if (TILING_KEY_IS(9)) {
            PipeBarrier<PIPE_ALL>();
            return;
        }
        event_t id = static_cast<event_t>(pipe.FetchEventID(evt));
        SetFlag<evt>(id);
        WaitFlag<evt>(id);
    }

    __aicore__ inline void CopyIn(uint32_t t)
    {
        LocalTensor<float> x = inQueueX.AllocTensor<float>();
        DataCopy(x, xGm[t * tile_], tile_);
        Order<HardEvent::MTE2_S>(TILING_KEY_IS(4));   // the scalar reads x below
        inQueueX.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t t)
    {
        LocalTensor<float> x = inQueueX.DeQue<float>();
        xFirst_ = x.GetValue(0);   // @getvalue-x
        LocalTensor<float> y = outQueueY.AllocTensor<float>();
        LocalTensor<float> one = oneBuf.Get<float>();
        LocalTensor<float> stage = stageBuf.Get<float>();
        if (TILING_KEY_IS(8) && t > 0) {
            Muls(y, x, 2.0f, tile_ / 2);   // from the second tile on, half of y is left unwritten
        } else {
            Muls(y, x, 2.0f, tile_);
        }
        Duplicate(one, 0.0f, tile_);
        // the scalar reads y and overwrites one[0]: after the vector pipe (block 1 forgets, mode 3)
        Order<HardEvent::V_S>(TILING_KEY_IS(3) && GetBlockIdx() == 1);
        yFirst_ = y.GetValue(0);   // @getvalue-y
        one.SetValue(0, 1.0f);
        for (uint32_t i = 1; i < tile_; ++i) one.SetValue(i, 1.0f);
        Order<HardEvent::S_V>(TILING_KEY_IS(5));
        Add(y, y, one, tile_);   // @add-one
        // x again through the staging buffer, which the previous tile's Add still reads
        if (t > 0) Order<HardEvent::V_MTE2>(TILING_KEY_IS(6));
        DataCopy(stage, xGm[t * tile_], tile_);   // @copy-stage
        if (TILING_KEY_IS(7)) {
            PipeBarrier<PIPE_V>();   // orders the vector pipe with itself, not with MTE2
        } else {
            Order<HardEvent::MTE2_V>(TILING_KEY_IS(1));
        }
        Add(y, y, stage, tile_);   // @add-stage
        inQueueX.FreeTensor(x);
        y_ = y;
        if (!TILING_KEY_IS(2)) {   // mode 2 copies y out without the queue hand-off
            outQueueY.EnQue(y);
        }
    }

    __aicore__ inline void CopyOut(uint32_t t)
    {
        LocalTensor<float> y = TILING_KEY_IS(2) ? y_ : outQueueY.DeQue<float>();
        DataCopy(yGm[t * tile_], y, tile_);   // @copy-out
        outQueueY.FreeTensor(y);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueueX;
    TQue<TPosition::VECOUT, 1> outQueueY;
    TBuf<TPosition::VECCALC> oneBuf, stageBuf;
    GlobalTensor<float> xGm, yGm;
    LocalTensor<float> y_;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
    float xFirst_ = 0.0f;
    float yFirst_ = 0.0f;
};

extern "C" __global__ __aicore__ void hazards(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    KernelHazards op;
    op.Init(x, y, t.length, t.tileLength);
    op.Run();
}
