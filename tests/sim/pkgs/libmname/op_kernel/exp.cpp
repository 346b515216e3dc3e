#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void exp(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    TPipe pipe;
    TBuf<QuePosition::VECCALC> buf;
    pipe.InitBuffer(buf, t.total * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, t.total);
    yGm.SetGlobalBuffer((__gm__ float*)y, t.total);
    LocalTensor<float> v = buf.Get<float>();
    DataCopy(v, xGm, t.total);
    PipeBarrier<PIPE_ALL>();
    Exp(v, v, t.total);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, v, t.total);
}
