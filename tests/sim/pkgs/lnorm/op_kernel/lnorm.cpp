#include "kernel_operator.h"
using namespace AscendC;

template <class T>
class KernelLnorm {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, const LnormTilingData& t)
    {
        cols = t.cols;
        eps = t.epsilon;
        invCols = t.invCols;
        uint32_t idx = GetBlockIdx();
        myRows = t.rowsPerCore + (idx < t.bigCores ? 1 : 0);
        uint32_t first = idx * t.rowsPerCore + (idx < t.bigCores ? idx : t.bigCores);
        xGm.SetGlobalBuffer((__gm__ T*)x + first * cols, myRows * cols);
        yGm.SetGlobalBuffer((__gm__ T*)y + first * cols, myRows * cols);
        gammaGm.SetGlobalBuffer((__gm__ T*)gamma, cols);
        betaGm.SetGlobalBuffer((__gm__ T*)beta, cols);
        pipe.InitBuffer(inQ, 2, cols * sizeof(T));
        pipe.InitBuffer(outQ, 2, cols * sizeof(T));
        pipe.InitBuffer(paramQ, 2, cols * sizeof(T));
        pipe.InitBuffer(xf, cols * sizeof(float));
        pipe.InitBuffer(gf, cols * sizeof(float));
        pipe.InitBuffer(bf, cols * sizeof(float));
        pipe.InitBuffer(work, cols * sizeof(float));
        pipe.InitBuffer(stat, 32);
    }
    __aicore__ inline void Process()
    {
        LoadParams();
        for (uint32_t r = 0; r < myRows; ++r) {
            LocalTensor<T> in = inQ.AllocTensor<T>();
            DataCopy(in, xGm[r * cols], cols);
            inQ.EnQue(in);
            Compute();
            LocalTensor<T> out = outQ.DeQue<T>();
            DataCopy(yGm[r * cols], out, cols);
            outQ.FreeTensor(out);
        }
    }

private:
    __aicore__ inline void ToFloat(const LocalTensor<float>& dst, const LocalTensor<T>& src)
    {
        if constexpr (sizeof(T) == 2) {
            Cast(dst, src, RoundMode::CAST_NONE, cols);
        } else {
            DataCopy(dst, src, cols);
        }
    }
    __aicore__ inline void LoadParams()
    {
        LocalTensor<T> g = paramQ.AllocTensor<T>();
        LocalTensor<T> b = paramQ.AllocTensor<T>();
        DataCopy(g, gammaGm, cols);
        DataCopy(b, betaGm, cols);
        paramQ.EnQue(g);
        paramQ.EnQue(b);
        g = paramQ.DeQue<T>();
        b = paramQ.DeQue<T>();
        ToFloat(gf.Get<float>(), g);
        ToFloat(bf.Get<float>(), b);
        paramQ.FreeTensor(g);
        paramQ.FreeTensor(b);
    }
    __aicore__ inline void Compute()
    {
        LocalTensor<T> in = inQ.DeQue<T>();
        LocalTensor<float> v = xf.Get<float>();
        LocalTensor<float> w = work.Get<float>();
        LocalTensor<float> s = stat.Get<float>();
        ToFloat(v, in);
        inQ.FreeTensor(in);
        ReduceSum<float>(s, v, w, cols);
        float mean = s.GetValue(0) * invCols;
        Adds(v, v, -mean, cols);
        Mul(w, v, v, cols);
        ReduceSum<float>(s, w, w, cols);
        float var = s.GetValue(0) * invCols;
        Duplicate(s, var + eps, 8);
        Sqrt(s, s, 8);
        float rstd = 1.0f / s.GetValue(0);
        Muls(v, v, rstd, cols);
        Mul(v, v, gf.Get<float>(), cols);
        Add(v, v, bf.Get<float>(), cols);
        LocalTensor<T> out = outQ.AllocTensor<T>();
        if constexpr (sizeof(T) == 2) {
            Cast(out, v, RoundMode::CAST_RINT, cols);
        } else {
            DataCopy(out, v, cols);
        }
        outQ.EnQue(out);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ, paramQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<QuePosition::VECCALC> xf, gf, bf, work, stat;
    GlobalTensor<T> xGm, yGm, gammaGm, betaGm;
    uint32_t cols = 0, myRows = 0;
    float eps = 0.0f, invCols = 0.0f;
};

extern "C" __global__ __aicore__ void lnorm(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelLnorm<DTYPE_X> op;
    op.Init(x, gamma, beta, y, tilingData);
    op.Process();
}
