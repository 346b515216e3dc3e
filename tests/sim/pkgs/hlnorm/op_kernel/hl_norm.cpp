#include "kernel_operator.h"
using namespace AscendC;

using T = DTYPE_X;
constexpr uint32_t ROWS = 8, COLS = 64, N = ROWS * COLS;

// n elements of T widened to float (a copy when T is float).
__aicore__ inline void ToFloat(const LocalTensor<float>& dst, const LocalTensor<T>& src, uint32_t n)
{
    if constexpr (sizeof(T) == 4) {
        DataCopy(dst, src.template ReinterpretCast<float>(), n);
    } else {
        Cast(dst, src, RoundMode::CAST_NONE, n);
    }
}

extern "C" __global__ __aicore__ void hl_norm(GM_ADDR x, GM_ADDR g, GM_ADDR z, GM_ADDR s, GM_ADDR r, GM_ADDR q,
                                              GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, gBuf, zBuf, sBuf, rBuf, qBuf, tmpBuf, aBuf, bBuf;
    GlobalTensor<T> xGm, gGm, zGm, sGm;
    GlobalTensor<float> rGm;
    GlobalTensor<int32_t> qGm;
    xGm.SetGlobalBuffer((__gm__ T*)x, N);
    gGm.SetGlobalBuffer((__gm__ T*)g, N);
    zGm.SetGlobalBuffer((__gm__ T*)z, N);
    sGm.SetGlobalBuffer((__gm__ T*)s, 128);
    rGm.SetGlobalBuffer((__gm__ float*)r, 64);
    qGm.SetGlobalBuffer((__gm__ int32_t*)q, 256);
    pipe.InitBuffer(xBuf, N * sizeof(T));
    pipe.InitBuffer(gBuf, N * sizeof(T));
    pipe.InitBuffer(zBuf, N * sizeof(T));
    pipe.InitBuffer(sBuf, 128 * sizeof(T));
    pipe.InitBuffer(rBuf, 64 * sizeof(float));
    pipe.InitBuffer(qBuf, N * sizeof(int32_t));
    pipe.InitBuffer(tmpBuf, 4096);
    pipe.InitBuffer(aBuf, N * sizeof(float));
    pipe.InitBuffer(bBuf, N * sizeof(float));
    LocalTensor<T> xl = xBuf.Get<T>(), gl = gBuf.Get<T>(), zl = zBuf.Get<T>(), sl = sBuf.Get<T>();
    LocalTensor<float> rl = rBuf.Get<float>();
    LocalTensor<int32_t> ql = qBuf.Get<int32_t>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    LocalTensor<float> fa = aBuf.Get<float>(), fb = bBuf.Get<float>();
    DataCopy(xl, xGm, N);
    DataCopy(gl, gGm, N);
    Duplicate(zl, (T)0, N);
    Duplicate(sl, (T)0, 128);
    Duplicate(rl, 0.0f, 64);
    Duplicate(ql, 0, N);
    LocalTensor<int8_t> q8 = ql.ReinterpretCast<int8_t>();
    const T eps = (T)t.eps;
    if (TILING_KEY_IS(1)) {
        AscendQuant<T>(q8, xl, tmp, t.scale, t.offset, N);
    } else if (TILING_KEY_IS(2)) {
        // per channel: 32 scales and 32 offsets along each row
        AscendQuant<T>(q8, xl, gl, gl[32], 32, 32, N);  // @quant-channel
    } else if (TILING_KEY_IS(3)) {
        AscendQuant<T>(q8, xl, gl, (T)t.offset, 32, 100);  // @quant-bad
    } else if (TILING_KEY_IS(4)) {
        // int32 values from x, dequantized by a float scale per column (48 of 64)
        Cast(ql, xl, RoundMode::CAST_RINT, N);
        ToFloat(fa, gl, COLS);
        AscendDequant<T, float>(zl, ql, fa, tmp, DequantParams{ROWS, COLS, 48});
    } else if (TILING_KEY_IS(5)) {
        Cast(ql, xl, RoundMode::CAST_RINT, N);
        AscendDequant<T, float>(zl, ql, t.scale, DequantParams{ROWS, COLS, COLS});
    } else if (TILING_KEY_IS(6)) {
        RmsNormTiling rt;
        rt.bLength = 2;
        rt.sLength = 4;
        rt.hLength = COLS;
        rt.originalHLength = t.valid;
        RmsNorm<T>(zl, xl, gl, tmp, eps, rt);  // @rmsnorm
    } else if (TILING_KEY_IS(7)) {
        LayerNormTiling lt;
        lt.bLength = 2;
        lt.sLength = 4;
        lt.hLength = COLS;
        lt.originalHLength = t.valid;
        LayerNorm<T>(zl, sl, sl[64], xl, gl, gl[64], tmp, eps, lt);
    } else if (TILING_KEY_IS(8)) {
        LayerNormSeparateTiling st;
        LayerNormPara para{ROWS, t.valid, COLS};
        LayerNorm<T, T>(zl, rl, rl[32], xl, gl, gl[64], t.eps, tmp, para, st);
    } else if (TILING_KEY_IS(9)) {
        DeepNormTiling dt;
        dt.bLength = 2;
        dt.sLength = 4;
        dt.hLength = COLS;
        dt.originalHLength = t.valid;
        DeepNorm<T>(zl, sl, sl[64], xl, gl, gl[64], gl[128], (T)t.scale, eps, dt);
    } else if (TILING_KEY_IS(10)) {
        BatchNormTiling bt;
        bt.originalBLength = ROWS;
        bt.meanVarSize = COLS;
        BatchNorm<T>(zl, sl, sl[64], xl, gl, gl[64], tmp, eps, bt);
    } else if (TILING_KEY_IS(11)) {
        GroupNormTiling gt;
        gt.n = 2;
        gt.c = 4;
        gt.hw = COLS;
        gt.g = 2;
        GroupNorm<T>(zl, sl, sl[64], xl, gl, gl[64], eps, gt);
    } else if (TILING_KEY_IS(12)) {
        // Normalize with LayerNorm's statistics, widened to float.
        LayerNormTiling lt;
        lt.bLength = 1;
        lt.sLength = ROWS;
        lt.hLength = COLS;
        lt.originalHLength = t.valid;
        LayerNorm<T>(zl, sl, sl[64], xl, gl, gl[64], tmp, eps, lt);
        ToFloat(fa, sl, 64);
        ToFloat(fb, sl[64], 64);
        Duplicate(zl, (T)0, N);
        NormalizePara np{ROWS, t.valid, COLS};
        Normalize<T, T>(zl, rl, fa, fb, xl, gl, gl[64], tmp, t.eps, np);
    } else if (TILING_KEY_IS(13)) {
        if constexpr (sizeof(T) == 2) {
            // int8 from x; (q + offset) * scale per column (64 channels), then per row of the transpose
            LocalTensor<int8_t> src8 = qBuf.Get<int8_t>(N);
            Cast(src8, xl, RoundMode::CAST_RINT, N);
            AscendAntiQuant<int8_t, T, false>(zl, src8, gl, gl[64], tmp, ROWS);
        }
    } else if (TILING_KEY_IS(14)) {
        if constexpr (sizeof(T) == 2) {
            LocalTensor<int8_t> src8 = qBuf.Get<int8_t>(N);
            Cast(src8, xl, RoundMode::CAST_RINT, N);
            AscendAntiQuant<int8_t, T, true>(zl, src8, gl, gl[64], COLS);
        }
    }
    else if (TILING_KEY_IS(15)) {
        // LayerNorm's statistics, then its gradient with dy = g and the gamma/beta gradients
        LayerNormTiling lt;
        lt.bLength = 2;
        lt.sLength = 4;
        lt.hLength = COLS;
        lt.originalHLength = t.valid;
        LayerNorm<T>(zl, sl, sl[64], xl, gl[128], gl[192], tmp, eps, lt);
        LayerNormGradTiling gt;
        gt.bLength = 2;
        gt.sLength = 4;
        gt.hLength = COLS;
        gt.originalHLength = t.valid;
        LocalTensor<T> res = aBuf.Get<T>(N);
        LocalTensor<T> mean = bBuf.Get<T>(64), var = bBuf.Get<T>()[64];
        DataCopy(mean, sl, 64);
        DataCopy(var, sl[64], 64);
        LayerNormGrad<T>(zl, res, gl, xl, var, mean, gl[64], tmp, eps, gt);
        LayerNormGradBetaTiling bt;
        bt.bLength = 2;
        bt.sLength = 4;
        bt.hLength = COLS;
        bt.originalHLength = t.valid;
        LayerNormGradBeta<T>(sl, sl[64], res, gl, tmp, bt);
    } else if (TILING_KEY_IS(16) || TILING_KEY_IS(17) || TILING_KEY_IS(18)) {
        // the mask is g's bytes: byte aligned (16), bit aligned (17), byte misaligned rows of 96 (18)
        LocalTensor<uint8_t> mask = gBuf.Get<uint8_t>();
        DropOutShapeInfo info;
        info.firstAxis = ROWS;
        info.srcLastAxis = COLS;
        info.maskLastAxis = TILING_KEY_IS(16) ? COLS : (TILING_KEY_IS(17) ? COLS / 8 : 96);
        if (TILING_KEY_IS(17)) {
            DropOut<T>(zl, xl, mask, tmp, t.scale, info);
        } else {
            DropOut<T>(zl, xl, mask, t.scale, info);  // @dropout
        }
        DataCopy(ql.ReinterpretCast<uint8_t>(), mask, 512);
    } else if (TILING_KEY_IS(19)) {
        LocalTensor<int16_t> a = xl.template ReinterpretCast<int16_t>(), b = gl.template ReinterpretCast<int16_t>();
        LocalTensor<int16_t> d = ql.ReinterpretCast<int16_t>();
        ReduceXorSum<int16_t>(d, a, b, tmp, 512);
    }
    else if (TILING_KEY_IS(20) || TILING_KEY_IS(21)) {
        // Welford over x's first row: mean and M2 from g, updated with nRec = scale
        ToFloat(fa, gl, COLS);
        ToFloat(fb, gl[64], COLS);
        LocalTensor<float> outVar = ql.ReinterpretCast<float>();
        WelfordUpdateParam wp{1, COLS, t.valid, t.scale};
        if (TILING_KEY_IS(20)) {
            WelfordUpdate<T, float>(rl, outVar, fa, fb, xl, tmp, wp);
        } else {
            static constexpr WelfordUpdateConfig inplace = {true};
            WelfordUpdate<T, float, false, inplace>(rl, outVar, fa, fb, xl, wp);
        }
    } else if (TILING_KEY_IS(26) || TILING_KEY_IS(27)) {
        // WelfordFinalize of 64 partial means (g's first row) and M2s (its second): key 26 with
        // headCount 4 over the first `valid` slots and tailCount 3 after them (no tail at 64),
        // key 27 with counts = g's third row x 4 rounded; rRec comes in `scale`
        ToFloat(fa, gl, COLS);
        ToFloat(fb, gl[64], COLS);
        WelfordFinalizePara wp{4, COLS, 4, t.valid, 3, COLS - t.valid, 1.0f / COLS, t.scale};
        if (TILING_KEY_IS(26)) {
            WelfordFinalize(rl, rl[8], fa, fb, tmp, wp);
        } else {
            LocalTensor<float> fc = fa[COLS];
            ToFloat(fc, gl[128], COLS);
            Muls(fc, fc, 4.0f, COLS);
            Cast(ql, fc, RoundMode::CAST_RINT, COLS);
            WelfordFinalize(rl, rl[8], fa, fb, ql, wp);
        }
    } else if (TILING_KEY_IS(22)) {
        PadTiling pt;
        pt.srcHeight = ROWS;
        pt.srcWidth = COLS;
        pt.srcOriWidth = t.valid;
        PadParams pp(0, (uint16_t)(COLS - t.valid), (int32_t)t.offset);
        Pad(zl, xl, pp, tmp, pt);
    } else if (TILING_KEY_IS(23)) {
        PadTiling pt;
        pt.srcHeight = ROWS;
        pt.srcWidth = 50;
        pt.srcOriWidth = 50;
        PadParams pp(6, 8, (int32_t)t.offset);
        Pad(zl, xl, pp, pt);
    } else if (TILING_KEY_IS(24) || TILING_KEY_IS(25)) {
        UnPadTiling ut;
        ut.srcHeight = ROWS;
        ut.srcWidth = COLS;
        UnPadParams up(0, (uint16_t)(COLS - t.valid));
        UnPad(zl, xl, up, tmp, ut);  // @unpad
    }
    DataCopy(zGm, zl, N);
    DataCopy(sGm, sl, 128);
    DataCopy(rGm, rl, 64);
    DataCopy(qGm, ql, 256);
}
