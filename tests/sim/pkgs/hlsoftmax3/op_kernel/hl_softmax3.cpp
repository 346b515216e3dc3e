#include "kernel_operator.h"
using namespace AscendC;

// stats: mean, expSum, max (one 8-float block per row each), then the first tile's three
extern "C" __global__ __aicore__ void hl_softmax3(GM_ADDR x, GM_ADDR g, GM_ADDR z, GM_ADDR stats, GM_ADDR e,
                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const uint32_t n = t.rows * t.cols, per = t.rows * 8;
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, gBuf, zBuf, stBuf, eBuf, tmpBuf;
    GlobalTensor<half> xGm, gGm, zGm, eGm;
    GlobalTensor<float> stGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, n);
    gGm.SetGlobalBuffer((__gm__ half*)g, n);
    zGm.SetGlobalBuffer((__gm__ half*)z, n);
    stGm.SetGlobalBuffer((__gm__ float*)stats, per * 6);
    eGm.SetGlobalBuffer((__gm__ half*)e, t.rows * 16);
    pipe.InitBuffer(xBuf, n * sizeof(half));
    pipe.InitBuffer(gBuf, n * sizeof(half));
    pipe.InitBuffer(zBuf, n * sizeof(half));
    pipe.InitBuffer(stBuf, per * 6 * sizeof(float));
    pipe.InitBuffer(eBuf, t.rows * 16 * sizeof(half));
    pipe.InitBuffer(tmpBuf, t.tmpBytes);
    LocalTensor<half> xl = xBuf.Get<half>(), gl = gBuf.Get<half>(), zl = zBuf.Get<half>(), el = eBuf.Get<half>();
    LocalTensor<float> st = stBuf.Get<float>();
    LocalTensor<float> mean = st, sum = st[per], max = st[2 * per];
    LocalTensor<float> mean0 = st[3 * per], sum0 = st[4 * per], max0 = st[5 * per];
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    DataCopy(xl, xGm, n);
    DataCopy(gl, gGm, n);
    Duplicate(st, 0.0f, per * 6);
    Duplicate(el, (half)0, t.rows * 16);
    SoftMaxParams params = {t.rows, t.cols, t.rows, t.cols, 1, 8, 0.9375f};
    if (TILING_KEY_IS(1)) {
        SoftmaxFlashV3<half, float>(zl, mean, sum, max, xl, el, mean, sum, max, tmp, t.softmaxTiling, params);
    } else if (TILING_KEY_IS(2)) {
        // the first tile's statistics, then the second tile (g) as step 2 of the loop
        SoftmaxFlashV3<half, float>(zl, mean0, sum0, max0, xl, el, mean0, sum0, max0, tmp, t.softmaxTiling, params);
        params.loopCnt = 2;
        SoftmaxFlashV3<half, float, true>(zl, mean, sum, max, gl, el, mean0, sum0, max0, t.softmaxTiling, params);
    } else if (TILING_KEY_IS(3)) {
        params.splitMeanCnt = 4;
        SoftmaxFlashV3<half, float>(zl, mean, sum, max, xl, el, mean, sum, max, tmp, t.softmaxTiling, params);  // @split
    }
    DataCopy(zGm, zl, n);
    DataCopy(stGm, st, per * 6);
    DataCopy(eGm, el, t.rows * 16);
}
