#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void cplx_scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    static_assert(sizeof(DTYPE_X) == 2 * sizeof(float), "complex64 is a pair of floats");
    uint32_t floats = t.count * 2;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, floats);
    yGm.SetGlobalBuffer((__gm__ float*)y, floats);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, floats * sizeof(float));
    LocalTensor<float> v = buf.Get<float>();
    DataCopy(v, xGm, floats);
    PipeBarrier<PIPE_ALL>();
    Muls(v, v, t.scale, floats);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, v, floats);
}
