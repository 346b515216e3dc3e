#include "kernel_operator.h"
using namespace AscendC;

using T = DTYPE_X;

extern "C" __global__ __aicore__ void hl_softmax2(GM_ADDR x, GM_ADDR g, GM_ADDR z, GM_ADDR s, GM_ADDR m, GM_ADDR e,
                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const uint32_t n = t.rows * t.cols;
    const uint32_t stats = t.rows * (32 / sizeof(T));
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, gBuf, zBuf, sBuf, mBuf, eBuf, s0Buf, m0Buf, tmpBuf;
    GlobalTensor<T> xGm, gGm, zGm, sGm, mGm, eGm;
    xGm.SetGlobalBuffer((__gm__ T*)x, n);
    gGm.SetGlobalBuffer((__gm__ T*)g, n);
    zGm.SetGlobalBuffer((__gm__ T*)z, n);
    sGm.SetGlobalBuffer((__gm__ T*)s, stats);
    mGm.SetGlobalBuffer((__gm__ T*)m, stats);
    eGm.SetGlobalBuffer((__gm__ T*)e, stats);
    pipe.InitBuffer(xBuf, n * sizeof(T));
    pipe.InitBuffer(gBuf, n * sizeof(T));
    pipe.InitBuffer(zBuf, n * sizeof(T));
    pipe.InitBuffer(sBuf, stats * sizeof(T));
    pipe.InitBuffer(mBuf, stats * sizeof(T));
    pipe.InitBuffer(eBuf, stats * sizeof(T));
    pipe.InitBuffer(s0Buf, stats * sizeof(T));
    pipe.InitBuffer(m0Buf, stats * sizeof(T));
    pipe.InitBuffer(tmpBuf, 16384);
    LocalTensor<T> xl = xBuf.Get<T>(), gl = gBuf.Get<T>(), zl = zBuf.Get<T>();
    LocalTensor<T> sl = sBuf.Get<T>(), ml = mBuf.Get<T>(), el = eBuf.Get<T>(), s0 = s0Buf.Get<T>(), m0 = m0Buf.Get<T>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    DataCopy(xl, xGm, n);
    DataCopy(gl, gGm, n);
    Duplicate(zl, (T)0, n);
    Duplicate(sl, (T)0, stats);
    Duplicate(ml, (T)0, stats);
    Duplicate(el, (T)0, stats);
    SoftMaxShapeInfo shape = {t.rows, t.cols, t.rows, t.cols};
    if (TILING_KEY_IS(1)) {
        SoftmaxFlashV2<T>(zl, sl, ml, xl, el, sl, ml, t.softmaxTiling, shape);
    } else if (TILING_KEY_IS(2)) {
        // the first tile's statistics, then the update with the second tile (g)
        SoftmaxFlashV2<T>(zl, s0, m0, xl, el, s0, m0, tmp, t.softmaxTiling, shape);
        SoftmaxFlashV2<T, true>(zl, sl, ml, gl, el, s0, m0, tmp, t.softmaxTiling, shape);
    } else if (TILING_KEY_IS(3)) {
        SoftmaxGrad<T>(zl, gl, xl, tmp, t.softmaxTiling, false, shape);
        SoftmaxGradFront<T>(sl, gl, xl, t.softmaxTiling, shape);
        SoftmaxGrad<T>(ml, gl, xl, t.softmaxTiling, true, shape);
    } else if (TILING_KEY_IS(4)) {
        LogSoftMaxTiling lt;
        lt.srcM = t.rows;
        lt.srcK = t.cols;
        LogSoftMax<T>(zl, sl, ml, xl, tmp, lt);
    } else if (TILING_KEY_IS(5)) {
        LogSoftMaxTiling lt;
        lt.srcM = 0;
        lt.srcK = 0;
        LogSoftMax<T>(zl, sl, ml, xl, tmp, lt);  // @no-shape
    } else if (TILING_KEY_IS(7)) {
        // key 2 with tilings the kernel makes (the host leaves them zero) from the shape it records
        // on the tensor (SetShapeInfo), no shape-info argument, as FlashAttentionScore retiles per block
        uint32_t dims[] = {t.rows, t.cols};
        xl.SetShapeInfo(ShapeInfo(2, dims, DataFormat::ND));
        const ShapeInfo info = xl.GetShapeInfo();
        const uint32_t words = tmp.GetSize() / sizeof(float);
        SoftMaxTiling first = SoftMaxFlashV2TilingFuncImpl(info.shape[0], info.shape[1], sizeof(T), sizeof(T), words,
                                                           false, false);
        SoftMaxTiling upd = SoftMaxFlashV2TilingFuncImpl(info.originalShape[0], info.originalShape[1], sizeof(T),
                                                         sizeof(T), words, true, true);
        SoftmaxFlashV2<T>(zl, s0, m0, xl, el, s0, m0, tmp, first);
        SoftmaxFlashV2<T, true>(zl, sl, ml, gl, el, s0, m0, tmp, upd);
    } else if (TILING_KEY_IS(8)) {
        // the last 5 columns are padding: the tensor's original shape keeps them out of the row max
        // and sum (no shape-info argument), as FlashAttentionScore pads its ragged S2 tail
        uint32_t dims[] = {t.rows, t.cols}, orig[] = {t.rows, t.cols - 5};
        xl.SetShapeInfo(ShapeInfo(2, dims, 2, orig, DataFormat::ND));
        SoftMaxTiling st = SoftMaxFlashV2TilingFuncImpl(t.rows, t.cols, sizeof(T), sizeof(T), tmp.GetSize() / 4);
        SoftmaxFlashV2<T>(zl, sl, ml, xl, el, sl, ml, tmp, st);
    } else if (TILING_KEY_IS(9)) {
        SoftmaxFlash<T>(zl, sl, ml, xl, el, sl, ml, t.softmaxTiling, false, shape);
    } else if (TILING_KEY_IS(10)) {
        // v1: the first tile normalised, then the update with the second tile (g)
        SoftmaxFlash<T>(zl, s0, m0, xl, el, s0, m0, tmp, t.softmaxTiling, false, shape);
        SoftmaxFlash<T>(zl, sl, ml, gl, el, s0, m0, tmp, t.softmaxTiling, true, shape);
    } else if (TILING_KEY_IS(6)) {
        SoftmaxFlashV2<T>(zl, sl, ml, xl, el, sl, ml, t.softmaxTiling, shape);
        const bool hit = AdjustSoftMaxRes<T, T>(zl, ml, t.from, (T)5, shape);
        el.SetValue(0, hit ? (T)1 : (T)0);
    }
    DataCopy(zGm, zl, n);
    DataCopy(sGm, sl, stats);
    DataCopy(mGm, ml, stats);
    DataCopy(eGm, el, stats);
}
