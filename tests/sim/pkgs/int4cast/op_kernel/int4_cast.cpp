// y = Cast<int4b_t>(x, CAST_RINT), z = Cast<half>(y): n a multiple of 64 (whole blocks of int4).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void int4_cast(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const uint32_t n = t.n;
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, yBuf, zBuf;
    pipe.InitBuffer(xBuf, n * sizeof(half));
    pipe.InitBuffer(yBuf, n / 2);
    pipe.InitBuffer(zBuf, n * sizeof(half));
    GlobalTensor<half> xGm, zGm;
    GlobalTensor<int4b_t> yGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, n);
    yGm.SetGlobalBuffer((__gm__ int4b_t*)y, n);
    zGm.SetGlobalBuffer((__gm__ half*)z, n);
    LocalTensor<half> xl = xBuf.Get<half>();
    LocalTensor<int4b_t> yl = yBuf.Get<int4b_t>();
    LocalTensor<half> zl = zBuf.Get<half>();
    DataCopy(xl, xGm, n);
    PipeBarrier<PIPE_ALL>();
    Cast(yl, xl, RoundMode::CAST_RINT, n);
    PipeBarrier<PIPE_V>();
    Cast(zl, yl, RoundMode::CAST_NONE, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, yl, n);
    DataCopy(zGm, zl, n);
}
