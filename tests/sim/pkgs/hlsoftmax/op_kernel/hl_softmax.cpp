#include "kernel_operator.h"
using namespace AscendC;

using T = DTYPE_X;

extern "C" __global__ __aicore__ void hl_softmax(GM_ADDR x, GM_ADDR z, GM_ADDR s, GM_ADDR m, GM_ADDR workspace,
                                                 GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const uint32_t n = t.rows * t.cols;
    const uint32_t stats = t.rows * (32 / sizeof(T));
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inX;
    TQue<QuePosition::VECOUT, 1> outZ;
    TBuf<TPosition::VECCALC> sumBuf, maxBuf, tmpBuf;
    GlobalTensor<T> xGm, zGm, sGm, mGm;
    xGm.SetGlobalBuffer((__gm__ T*)x, n);
    zGm.SetGlobalBuffer((__gm__ T*)z, n);
    sGm.SetGlobalBuffer((__gm__ T*)s, stats);
    mGm.SetGlobalBuffer((__gm__ T*)m, stats);
    pipe.InitBuffer(inX, 1, n * sizeof(T));
    pipe.InitBuffer(outZ, 1, n * sizeof(T));
    pipe.InitBuffer(sumBuf, stats * sizeof(T));
    pipe.InitBuffer(maxBuf, stats * sizeof(T));
    pipe.InitBuffer(tmpBuf, 16384);
    LocalTensor<T> xl = inX.AllocTensor<T>();
    DataCopy(xl, xGm, n);
    inX.EnQue(xl);
    xl = inX.DeQue<T>();
    LocalTensor<T> zl = outZ.AllocTensor<T>();
    Duplicate(zl, (T)0, n);
    LocalTensor<T> sl = sumBuf.Get<T>();
    LocalTensor<T> ml = maxBuf.Get<T>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>(t.tmpBytes);
    SoftMaxShapeInfo shape = {t.rows, t.cols, t.rows, t.valid};
    if (TILING_KEY_IS(1)) {
        SoftMax<T>(zl, sl, ml, xl, tmp, t.softmaxTiling, shape);  // @softmax-tmp
    } else if (TILING_KEY_IS(2)) {
        SoftMax<T>(zl, xl, t.softmaxTiling, shape);
        Duplicate(sl, (T)0, stats);
        Duplicate(ml, (T)0, stats);
    } else if (TILING_KEY_IS(4)) {
        // SoftMax's sum and max, then SimpleSoftMax from them into z.
        SoftMax<T>(zl, sl, ml, xl, tmp, t.softmaxTiling, shape);
        Duplicate(zl, (T)0, n);
        SimpleSoftMax<T>(zl, sl, ml, xl, tmp, t.softmaxTiling, shape);
    } else if (TILING_KEY_IS(3)) {
        // The shape from the tiling alone (every element valid).
        SoftMax<T>(zl, sl, ml, xl, t.softmaxTiling);
    }
    outZ.EnQue(zl);
    zl = outZ.DeQue<T>();
    DataCopy(zGm, zl, n);
    DataCopy(sGm, sl, stats);
    DataCopy(mGm, ml, stats);
    outZ.FreeTensor(zl);
    inX.FreeTensor(xl);
}
