/*
 * RmsNormCustom kernel: y = x / sqrt(mean(x^2) + epsilon) * gamma over the last axis.
 *
 * Each core owns a contiguous run of rows (see rms_norm_custom_tiling.h) and streams them one row
 * per tile through double-buffered queues; gamma is loaded (and widened to float) once per core.
 * The arithmetic runs in float for both dtypes: float16 rows are Cast up on the way in and down
 * on the way out. Rows that are not whole 32-byte blocks move with DataCopyPad (Atlas A2/A3).
 */
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;       // double buffering; the host tiling assumes the same
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t STAT_BYTES = 32;     // one block holds a reduction result

template <typename T>
class KernelRmsNorm {
public:
    __aicore__ inline KernelRmsNorm() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, uint32_t rowLength, uint32_t rowAligned,
        uint32_t formerNum, uint32_t rowsPerCore, uint32_t reduceWorkLength, float epsilon, float avgFactor)
    {
        ASSERT(rowLength != 0 && "row length can not be zero");
        const uint32_t blockIdx = GetBlockIdx();
        this->rowCount = rowsPerCore + (blockIdx < formerNum ? 1 : 0);
        const uint64_t firstRow = static_cast<uint64_t>(blockIdx) * rowsPerCore + (blockIdx < formerNum ? blockIdx : formerNum);
        this->rowLength = rowLength;
        this->epsilon = epsilon;
        this->avgFactor = avgFactor;

        const uint64_t offset = firstRow * rowLength;
        const uint64_t length = static_cast<uint64_t>(this->rowCount) * rowLength;
        xGm.SetGlobalBuffer((__gm__ T *)x + offset, length);
        yGm.SetGlobalBuffer((__gm__ T *)y + offset, length);
        gammaGm.SetGlobalBuffer((__gm__ T *)gamma, rowLength);

        const uint32_t floatAligned = (rowLength + 7) / 8 * 8;   // 8 floats per 32-byte block
        pipe.InitBuffer(inQueueX, BUFFER_NUM, rowAligned * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, rowAligned * sizeof(T));
        pipe.InitBuffer(inQueueGamma, 1, rowAligned * sizeof(T));
        pipe.InitBuffer(calcBuf, floatAligned * sizeof(float));
        pipe.InitBuffer(squareBuf, floatAligned * sizeof(float));
        pipe.InitBuffer(gammaBuf, floatAligned * sizeof(float));
        pipe.InitBuffer(workBuf, reduceWorkLength * sizeof(float));
        pipe.InitBuffer(statBuf, STAT_BYTES);
    }

    __aicore__ inline void Process()
    {
        LoadGamma();
        for (uint32_t row = 0; row < this->rowCount; row++) {
            CopyIn(row);
            Compute();
            CopyOut(row);
        }
    }

private:
    __aicore__ inline void CopyRowIn(const LocalTensor<T> &dst, const GlobalTensor<T> &src)
    {
        if ((this->rowLength * sizeof(T)) % BLOCK_BYTES == 0) {
            DataCopy(dst, src, this->rowLength);
        } else {
            DataCopyExtParams copyParams{1, static_cast<uint32_t>(this->rowLength * sizeof(T)), 0, 0, 0};
            DataCopyPadExtParams<T> padParams;
            DataCopyPad(dst, src, copyParams, padParams);
        }
    }

    // dst (float) = src (T), the H elements of a row.
    __aicore__ inline void Widen(const LocalTensor<float> &dst, const LocalTensor<T> &src)
    {
        if constexpr (sizeof(T) == sizeof(float)) {
            Adds(dst, src.template ReinterpretCast<float>(), 0.0f, this->rowLength);
        } else {
            Cast(dst, src, RoundMode::CAST_NONE, this->rowLength);
        }
    }

    __aicore__ inline void LoadGamma()
    {
        LocalTensor<T> gammaLocal = inQueueGamma.AllocTensor<T>();
        CopyRowIn(gammaLocal, gammaGm);
        inQueueGamma.EnQue(gammaLocal);
        gammaLocal = inQueueGamma.DeQue<T>();
        Widen(gammaBuf.Get<float>(), gammaLocal);
        inQueueGamma.FreeTensor(gammaLocal);
    }

    __aicore__ inline void CopyIn(uint32_t row)
    {
        LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        CopyRowIn(xLocal, xGm[static_cast<uint64_t>(row) * this->rowLength]);
        inQueueX.EnQue(xLocal);
    }

    // A reduction result is read by the scalar unit: it must wait for the vector pipe.
    __aicore__ inline void WaitVectorForScalar()
    {
        event_t eventIdVToS = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(eventIdVToS);
        WaitFlag<HardEvent::V_S>(eventIdVToS);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        LocalTensor<float> calc = calcBuf.Get<float>();
        LocalTensor<float> square = squareBuf.Get<float>();
        LocalTensor<float> gammaF = gammaBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> stat = statBuf.Get<float>();
        const uint32_t n = this->rowLength;

        Widen(calc, xLocal);
        inQueueX.FreeTensor(xLocal);

        // mean of squares
        Mul(square, calc, calc, n);
        ReduceSum<float>(stat, square, work, n);
        WaitVectorForScalar();
        const float meanSquare = stat.GetValue(0) * this->avgFactor;

        // 1 / sqrt(ms + eps): the scalar unit has no square root, so take it on the vector unit.
        Duplicate(stat, meanSquare + this->epsilon, 1);
        Sqrt(stat, stat, 1);
        WaitVectorForScalar();
        const float rstd = 1.0f / stat.GetValue(0);

        Muls(calc, calc, rstd, n);
        Mul(calc, calc, gammaF, n);
        if constexpr (sizeof(T) == sizeof(float)) {
            Adds(yLocal.template ReinterpretCast<float>(), calc, 0.0f, n);
        } else {
            Cast(yLocal, calc, RoundMode::CAST_NONE, n);
        }
        outQueueY.EnQue<T>(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t row)
    {
        LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        const uint64_t offset = static_cast<uint64_t>(row) * this->rowLength;
        if ((this->rowLength * sizeof(T)) % BLOCK_BYTES == 0) {
            DataCopy(yGm[offset], yLocal, this->rowLength);
        } else {
            DataCopyExtParams copyParams{1, static_cast<uint32_t>(this->rowLength * sizeof(T)), 0, 0, 0};
            DataCopyPad(yGm[offset], yLocal, copyParams);
        }
        outQueueY.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueY;
    TQue<TPosition::VECIN, 1> inQueueGamma;
    TBuf<TPosition::VECCALC> calcBuf, squareBuf, gammaBuf, workBuf, statBuf;
    GlobalTensor<T> xGm, yGm, gammaGm;
    uint32_t rowCount = 0;
    uint32_t rowLength = 0;
    float epsilon = 0.0f;
    float avgFactor = 0.0f;
};

extern "C" __global__ __aicore__ void rms_norm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR workspace,
    GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelRmsNorm<DTYPE_X> op;
    op.Init(x, gamma, y, tilingData.rowLength, tilingData.rowAligned, tilingData.formerNum, tilingData.rowsPerCore,
        tilingData.reduceWorkLength, tilingData.epsilon, tilingData.avgFactor);
    op.Process();
}
