// x (DTYPE_X = int4b_t, two values a GM byte) is copied to UB by element count, read element by
// element (GetValue sign-extends each nibble), widened into y; z is x copied back with two
// elements rewritten through SetValue (a store of one nibble keeps its neighbour).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void int4_widen(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                 GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const uint32_t n = t.n;   // a multiple of 64: whole 32-byte blocks of int4
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, yBuf;
    pipe.InitBuffer(xBuf, n / 2);
    pipe.InitBuffer(yBuf, n * sizeof(int32_t));
    GlobalTensor<DTYPE_X> xGm;
    GlobalTensor<int32_t> yGm;
    GlobalTensor<DTYPE_Z> zGm;
    xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x, n);
    yGm.SetGlobalBuffer((__gm__ int32_t*)y, n);
    zGm.SetGlobalBuffer((__gm__ DTYPE_Z*)z, n);
    if (t.overrun) {   // n / 2 elements (n / 4 bytes): the copy of n runs past it
        TBuf<TPosition::VECCALC> halfBuf;
        pipe.InitBuffer(halfBuf, n / 4);
        LocalTensor<DTYPE_X> half = halfBuf.Get<DTYPE_X>();
        DataCopy(half, xGm, n);
        return;
    }
    LocalTensor<DTYPE_X> xl = xBuf.Get<DTYPE_X>();
    LocalTensor<int32_t> yl = yBuf.Get<int32_t>();
    DataCopy(xl, xGm, n);
    PipeBarrier<PIPE_ALL>();
    for (uint32_t i = 0; i < n; ++i) {
        yl.SetValue(i, 2 * static_cast<int32_t>(static_cast<int8_t>(xl.GetValue(i))));
    }
    xl.SetValue(1, int4b_t(-static_cast<int32_t>(static_cast<int8_t>(xl.GetValue(1)))));
    xl.SetValue(n - 1, int4b_t(7));
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, yl, n);
    DataCopy(zGm, xl, n);
    if (t.firstByte >= 0) {   // the host saw x's first byte as GM holds it
        const uint8_t low = static_cast<uint8_t>(static_cast<int8_t>(xGm.GetValue(0))) & 0x0F;
        const uint8_t high = static_cast<uint8_t>(static_cast<int8_t>(xGm.GetValue(1))) & 0x0F;
        yGm.SetValue(0, t.firstByte == (low | (high << 4)) ? yl.GetValue(0) : 1000);
    }
}
