/*
 * LayerNormCustom kernel: y = (x - mean) / sqrt(var + epsilon) * gamma + beta over the last axis.
 *
 * Each core owns a contiguous run of rows (see layer_norm_custom_tiling.h) and streams them one
 * row per tile through double-buffered queues; gamma and beta are loaded once per core. The
 * vector work is done in the kernel dtype (float16 stays float16); only the per-row statistics
 * pass through the scalar unit in float.
 */
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;        // double buffering; the host tiling assumes the same
constexpr uint32_t STAT_BYTES = 32;      // one block holds a reduction result

template <typename T>
class KernelLayerNorm {
public:
    __aicore__ inline KernelLayerNorm() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, uint32_t rowLength,
        uint32_t formerNum, uint32_t rowsPerCore, uint32_t reduceWorkLength, float epsilon, float avgFactor)
    {
        ASSERT(rowLength != 0 && "row length can not be zero");
        const uint32_t blockIdx = GetBlockIdx();
        // Cores before formerNum take one extra row, so a core's first row is shifted by the
        // number of extra rows taken before it.
        this->rowCount = rowsPerCore + (blockIdx < formerNum ? 1 : 0);
        const uint64_t firstRow = static_cast<uint64_t>(blockIdx) * rowsPerCore + (blockIdx < formerNum ? blockIdx : formerNum);
        this->rowLength = rowLength;
        this->reduceWorkLength = reduceWorkLength;
        this->epsilon = epsilon;
        this->avgFactor = avgFactor;

        const uint64_t offset = firstRow * rowLength;
        const uint64_t length = static_cast<uint64_t>(this->rowCount) * rowLength;
        xGm.SetGlobalBuffer((__gm__ T *)x + offset, length);
        yGm.SetGlobalBuffer((__gm__ T *)y + offset, length);
        gammaGm.SetGlobalBuffer((__gm__ T *)gamma, rowLength);
        betaGm.SetGlobalBuffer((__gm__ T *)beta, rowLength);

        const uint32_t rowBytes = rowLength * sizeof(T);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, rowBytes);
        pipe.InitBuffer(outQueueY, BUFFER_NUM, rowBytes);
        pipe.InitBuffer(inQueueGamma, 1, rowBytes);
        pipe.InitBuffer(inQueueBeta, 1, rowBytes);
        pipe.InitBuffer(centeredBuf, rowBytes);
        pipe.InitBuffer(workBuf, reduceWorkLength * sizeof(T));
        pipe.InitBuffer(sumBuf, STAT_BYTES);
        pipe.InitBuffer(rstdBuf, STAT_BYTES);
    }

    __aicore__ inline void Process()
    {
        CopyInParams();
        LocalTensor<T> gammaLocal = inQueueGamma.DeQue<T>();
        LocalTensor<T> betaLocal = inQueueBeta.DeQue<T>();
        for (uint32_t row = 0; row < this->rowCount; row++) {
            CopyIn(row);
            Compute(gammaLocal, betaLocal);
            CopyOut(row);
        }
        inQueueGamma.FreeTensor(gammaLocal);
        inQueueBeta.FreeTensor(betaLocal);
    }

private:
    __aicore__ inline void CopyInParams()
    {
        LocalTensor<T> gammaLocal = inQueueGamma.AllocTensor<T>();
        LocalTensor<T> betaLocal = inQueueBeta.AllocTensor<T>();
        DataCopy(gammaLocal, gammaGm, this->rowLength);
        DataCopy(betaLocal, betaGm, this->rowLength);
        inQueueGamma.EnQue(gammaLocal);
        inQueueBeta.EnQue(betaLocal);
    }

    __aicore__ inline void CopyIn(uint32_t row)
    {
        LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        DataCopy(xLocal, xGm[static_cast<uint64_t>(row) * this->rowLength], this->rowLength);
        inQueueX.EnQue(xLocal);
    }

    // A reduction result is read by the scalar unit: it must wait for the vector pipe.
    __aicore__ inline void WaitVectorForScalar()
    {
        event_t eventIdVToS = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(eventIdVToS);
        WaitFlag<HardEvent::V_S>(eventIdVToS);
    }

    __aicore__ inline void Compute(const LocalTensor<T> &gammaLocal, const LocalTensor<T> &betaLocal)
    {
        LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        LocalTensor<T> centered = centeredBuf.Get<T>();
        LocalTensor<T> work = workBuf.Get<T>();
        LocalTensor<T> sum = sumBuf.Get<T>();
        LocalTensor<float> rstd = rstdBuf.Get<float>();
        const uint32_t n = this->rowLength;

        // mean
        ReduceSum<T>(sum, xLocal, work, n);
        WaitVectorForScalar();
        const float mean = static_cast<float>(sum.GetValue(0)) * this->avgFactor;

        // x - mean, and its square for the variance
        Adds(centered, xLocal, static_cast<T>(-mean), n);
        inQueueX.FreeTensor(xLocal);
        Mul(yLocal, centered, centered, n);
        ReduceSum<T>(sum, yLocal, work, n);
        WaitVectorForScalar();
        const float variance = static_cast<float>(sum.GetValue(0)) * this->avgFactor;

        // 1 / sqrt(var + eps): the scalar unit has no square root, so take it on the vector unit,
        // in float so that a float16 kernel does not lose the small epsilon.
        Duplicate(rstd, variance + this->epsilon, 1);
        Sqrt(rstd, rstd, 1);
        WaitVectorForScalar();
        const float scale = 1.0f / rstd.GetValue(0);

        // (x - mean) * rstd * gamma + beta
        Muls(yLocal, centered, static_cast<T>(scale), n);
        Mul(yLocal, yLocal, gammaLocal, n);
        Add(yLocal, yLocal, betaLocal, n);
        outQueueY.EnQue<T>(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t row)
    {
        LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        DataCopy(yGm[static_cast<uint64_t>(row) * this->rowLength], yLocal, this->rowLength);
        outQueueY.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueY;
    TQue<TPosition::VECIN, 1> inQueueGamma, inQueueBeta;
    TBuf<TPosition::VECCALC> centeredBuf, workBuf, sumBuf, rstdBuf;
    GlobalTensor<T> xGm, yGm, gammaGm, betaGm;
    uint32_t rowCount = 0;
    uint32_t rowLength = 0;
    uint32_t reduceWorkLength = 0;
    float epsilon = 0.0f;
    float avgFactor = 0.0f;
};

extern "C" __global__ __aicore__ void layer_norm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelLayerNorm<DTYPE_X> op;
    op.Init(x, gamma, beta, y, tilingData.rowLength, tilingData.formerNum, tilingData.rowsPerCore,
        tilingData.reduceWorkLength, tilingData.epsilon, tilingData.avgFactor);
    op.Process();
}
