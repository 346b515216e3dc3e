/*
 * ReluAddCustom kernel: z = relu(x + y), fused: both steps on the tile while it is in UB.
 *
 * Each core owns one contiguous range (see relu_add_custom_tiling.h) and streams it through
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
class KernelReluAddCustom {
public:
    __aicore__ inline KernelReluAddCustom() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t formerNum,
        uint32_t formerLength, uint32_t tailLength, uint32_t tileLength)
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
        this->tileNum = (this->blockLength + tileLength - 1) / tileLength;
        this->lastTileLength = this->blockLength - (this->tileNum - 1) * tileLength;

        xGm.SetGlobalBuffer((__gm__ T *)x + offset, this->blockLength);
        yGm.SetGlobalBuffer((__gm__ T *)y + offset, this->blockLength);
        zGm.SetGlobalBuffer((__gm__ T *)z + offset, this->blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, this->tileLength * sizeof(T));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, this->tileLength * sizeof(T));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, this->tileLength * sizeof(T));
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
        LocalTensor<T> yLocal = inQueueY.AllocTensor<T>();
        const uint64_t offset = static_cast<uint64_t>(progress) * this->tileLength;
        if ((length * sizeof(T)) % BLOCK_BYTES == 0) {
            DataCopy(xLocal, xGm[offset], length);
            DataCopy(yLocal, yGm[offset], length);
        } else {
            DataCopyExtParams copyParams{1, static_cast<uint32_t>(length * sizeof(T)), 0, 0, 0};
            DataCopyPadExtParams<T> padParams;
            DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
            DataCopyPad(yLocal, yGm[offset], copyParams, padParams);
        }
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }

    __aicore__ inline void Compute(uint32_t length)
    {
        LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        LocalTensor<T> yLocal = inQueueY.DeQue<T>();
        LocalTensor<T> zLocal = outQueueZ.AllocTensor<T>();
        // Only the `length` elements copied in are computed: the rest of the tile is not data.
        Add(zLocal, xLocal, yLocal, length);
        Relu(zLocal, zLocal, length);
        outQueueZ.EnQue<T>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t progress, uint32_t length)
    {
        LocalTensor<T> zLocal = outQueueZ.DeQue<T>();
        const uint64_t offset = static_cast<uint64_t>(progress) * this->tileLength;
        if ((length * sizeof(T)) % BLOCK_BYTES == 0) {
            DataCopy(zGm[offset], zLocal, length);
        } else {
            DataCopyExtParams copyParams{1, static_cast<uint32_t>(length * sizeof(T)), 0, 0, 0};
            DataCopyPad(zGm[offset], zLocal, copyParams);
        }
        outQueueZ.FreeTensor(zLocal);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueZ;
    GlobalTensor<T> xGm, yGm, zGm;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
    uint32_t tileNum = 0;
    uint32_t lastTileLength = 0;
};

extern "C" __global__ __aicore__ void relu_add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelReluAddCustom<DTYPE_X> op;
    op.Init(x, y, z, tilingData.totalLength, tilingData.formerNum, tilingData.formerLength, tilingData.tailLength,
        tilingData.tileLength);
    op.Process();
}
