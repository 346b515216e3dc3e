/*
 * AddCustom kernel: z = x + y.
 *
 * Each core owns one contiguous range (see add_custom_tiling.h) and streams it through UB in
 * tiles: CopyIn (GM -> UB), Compute (Add), CopyOut (UB -> GM), with two buffers per queue so the
 * copy of tile i+1 can overlap the add of tile i.
 */
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;  // double buffering; the host tiling assumes the same

template <typename T>
class KernelAdd {
public:
    __aicore__ inline KernelAdd() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t formerNum, uint32_t formerLength,
        uint32_t tailLength, uint32_t tileLength)
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
        this->tileLength = tileLength;
        this->tileNum = (this->blockLength + tileLength - 1) / tileLength;
        // The last tile takes what is left; the host keeps it a whole number of 32-byte blocks.
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
        DataCopy(xLocal, xGm[progress * this->tileLength], length);
        DataCopy(yLocal, yGm[progress * this->tileLength], length);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }

    __aicore__ inline void Compute(uint32_t length)
    {
        LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        LocalTensor<T> yLocal = inQueueY.DeQue<T>();
        LocalTensor<T> zLocal = outQueueZ.AllocTensor<T>();
        Add(zLocal, xLocal, yLocal, length);
        outQueueZ.EnQue<T>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t progress, uint32_t length)
    {
        LocalTensor<T> zLocal = outQueueZ.DeQue<T>();
        DataCopy(zGm[progress * this->tileLength], zLocal, length);
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

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAdd<DTYPE_X> op;
    op.Init(x, y, z, tilingData.formerNum, tilingData.formerLength, tilingData.tailLength, tilingData.tileLength);
    op.Process();
}
