/*
 * SoftmaxCustom kernel: y = exp(x - max) / sum(exp(x - max)) over the last axis.
 *
 * Each core owns a contiguous run of rows (see softmax_custom_tiling.h) and streams them one row
 * per tile through double-buffered queues. Per row: max by ReduceMax, x - max by Adds, Exp, the
 * sum by ReduceSum, then Muls by 1 / sum. The arithmetic runs in float for both dtypes (float16
 * rows are Cast up on the way in and down on the way out), so a float16 result is one rounding
 * away from the exact value. Rows whose byte length is not whole 32-byte blocks move with
 * DataCopyPad (Atlas A2/A3); the reductions only ever read the H elements that were copied.
 */
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;       // double buffering; the host tiling assumes the same
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t STAT_BYTES = 32;     // one block holds a reduction result

template <typename T>
class KernelSoftmax {
public:
    __aicore__ inline KernelSoftmax() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rowLength, uint32_t rowAligned, uint32_t formerNum,
        uint32_t rowsPerCore, uint32_t reduceWorkLength)
    {
        ASSERT(rowLength != 0 && "row length can not be zero");
        const uint32_t blockIdx = GetBlockIdx();
        // Cores before formerNum take one extra row, so a core's first row is shifted by the
        // number of extra rows taken before it.
        this->rowCount = rowsPerCore + (blockIdx < formerNum ? 1 : 0);
        const uint64_t firstRow = static_cast<uint64_t>(blockIdx) * rowsPerCore + (blockIdx < formerNum ? blockIdx : formerNum);
        this->rowLength = rowLength;

        const uint64_t offset = firstRow * rowLength;
        const uint64_t length = static_cast<uint64_t>(this->rowCount) * rowLength;
        xGm.SetGlobalBuffer((__gm__ T *)x + offset, length);
        yGm.SetGlobalBuffer((__gm__ T *)y + offset, length);

        const uint32_t floatAligned = (rowLength + 7) / 8 * 8;   // 8 floats per 32-byte block
        pipe.InitBuffer(inQueueX, BUFFER_NUM, rowAligned * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, rowAligned * sizeof(T));
        pipe.InitBuffer(calcBuf, floatAligned * sizeof(float));
        pipe.InitBuffer(workBuf, reduceWorkLength * sizeof(float));
        pipe.InitBuffer(statBuf, STAT_BYTES);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t row = 0; row < this->rowCount; row++) {
            CopyIn(row);
            Compute();
            CopyOut(row);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t row)
    {
        LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        const uint64_t offset = static_cast<uint64_t>(row) * this->rowLength;
        if ((this->rowLength * sizeof(T)) % BLOCK_BYTES == 0) {
            DataCopy(xLocal, xGm[offset], this->rowLength);
        } else {
            DataCopyExtParams copyParams{1, static_cast<uint32_t>(this->rowLength * sizeof(T)), 0, 0, 0};
            DataCopyPadExtParams<T> padParams;
            DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        }
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
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> stat = statBuf.Get<float>();
        const uint32_t n = this->rowLength;

        if constexpr (sizeof(T) == sizeof(float)) {
            Adds(calc, xLocal.template ReinterpretCast<float>(), 0.0f, n);   // a float copy of the row
        } else {
            Cast(calc, xLocal, RoundMode::CAST_NONE, n);
        }
        inQueueX.FreeTensor(xLocal);

        ReduceMax<float>(stat, calc, work, n);
        WaitVectorForScalar();
        const float rowMax = stat.GetValue(0);
        Adds(calc, calc, -rowMax, n);
        Exp(calc, calc, n);
        ReduceSum<float>(stat, calc, work, n);
        WaitVectorForScalar();
        const float rowSum = stat.GetValue(0);   // >= 1: the maximum contributes exp(0)
        Muls(calc, calc, 1.0f / rowSum, n);

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
    TBuf<TPosition::VECCALC> calcBuf, workBuf, statBuf;
    GlobalTensor<T> xGm, yGm;
    uint32_t rowCount = 0;
    uint32_t rowLength = 0;
};

extern "C" __global__ __aicore__ void softmax_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelSoftmax<DTYPE_X> op;
    op.Init(x, y, tilingData.rowLength, tilingData.rowAligned, tilingData.formerNum, tilingData.rowsPerCore,
        tilingData.reduceWorkLength);
    op.Process();
}
