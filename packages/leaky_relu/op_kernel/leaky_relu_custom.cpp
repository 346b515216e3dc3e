/*
 * LeakyReluCustom kernel: y = x >= 0 ? x : x * negativeSlope.
 *
 * Each core owns one contiguous range (see leaky_relu_custom_tiling.h) and streams it through
 * UB in tiles: CopyIn (GM -> UB), Compute, CopyOut (UB -> GM), two buffers per queue so the
 * copy of tile i+1 can overlap the compute of tile i. A tile whose byte length is not a whole
 * number of 32-byte blocks (only the very end of the tensor) moves with DataCopyPad, which
 * exists on Atlas A2/A3 and 200I/500 A2, not on Atlas inference (310P) or training (910A) parts.
 */
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;       // double buffering; the host tiling assumes the same
constexpr uint32_t BLOCK_BYTES = 32;

template <typename T>
class KernelLeakyReluCustom {
public:
    __aicore__ inline KernelLeakyReluCustom() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t totalLength, uint32_t formerNum,
        uint32_t formerLength, uint32_t tailLength, uint32_t tileLength, float negativeSlope)
    {
        ASSERT(tileLength != 0 && "tile length can not be zero");
        const uint32_t blockIdx = GetBlockIdx();
        uint64_t offset;
        if (blockIdx < formerNum) {
            this->blockLength = formerLength;
            offset = static_cast<uint64_t>(blockIdx) * formerLength;
        } else {
            this->blockLength = tailLength;
            offset = static_cast<uint64_t>(formerNum) * formerLength +
                     static_cast<uint64_t>(blockIdx - formerNum) * tailLength;
        }
        // The last core's range stops at the end of the tensor.
        if (offset + this->blockLength > totalLength) {
            this->blockLength = static_cast<uint32_t>(totalLength - offset);
        }
        this->tileLength = tileLength;
        this->negativeSlope = static_cast<T>(negativeSlope);
        this->tileNum = (this->blockLength + tileLength - 1) / tileLength;
        this->lastTileLength = this->blockLength - (this->tileNum - 1) * tileLength;

        xGm.SetGlobalBuffer((__gm__ T *)x + offset, this->blockLength);
        yGm.SetGlobalBuffer((__gm__ T *)y + offset, this->blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, this->tileLength * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, this->tileLength * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < this->tileNum; i++) {
            const uint32_t length = (i + 1 == this->tileNum) ? this->lastTileLength : this->tileLength;
            CopyIn(i, length);
            Compute(length);
            CopyOut(i, length);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t length)
    {
        LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        const uint64_t offset = static_cast<uint64_t>(progress) * this->tileLength;
        if ((length * sizeof(T)) % BLOCK_BYTES == 0) {
            DataCopy(xLocal, xGm[offset], length);
        } else {
            DataCopyExtParams copyParams{1, static_cast<uint32_t>(length * sizeof(T)), 0, 0, 0};
            DataCopyPadExtParams<T> padParams;
            DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        }
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t length)
    {
        LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        // Only the `length` elements copied in are computed: the rest of the tile is not data.
        LeakyRelu(yLocal, xLocal, this->negativeSlope, length);
        outQueueY.EnQue<T>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t progress, uint32_t length)
    {
        LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        const uint64_t offset = static_cast<uint64_t>(progress) * this->tileLength;
        if ((length * sizeof(T)) % BLOCK_BYTES == 0) {
            DataCopy(yGm[offset], yLocal, length);
        } else {
            DataCopyExtParams copyParams{1, static_cast<uint32_t>(length * sizeof(T)), 0, 0, 0};
            DataCopyPad(yGm[offset], yLocal, copyParams);
        }
        outQueueY.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueY;
    GlobalTensor<T> xGm, yGm;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
    uint32_t tileNum = 0;
    uint32_t lastTileLength = 0;
    T negativeSlope{};
};

extern "C" __global__ __aicore__ void leaky_relu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelLeakyReluCustom<DTYPE_X> op;
    op.Init(x, y, tilingData.totalLength, tilingData.formerNum, tilingData.formerLength, tilingData.tailLength,
        tilingData.tileLength, tilingData.negativeSlope);
    op.Process();
}
