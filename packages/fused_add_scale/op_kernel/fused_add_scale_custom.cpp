/*
 * FusedAddScaleCustom kernel: y = (a + b) * scale, both steps on the tile while it is in UB.
 *
 * Each core owns one contiguous range (see fused_add_scale_custom_tiling.h) and streams it through
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
class KernelFusedAddScaleCustom {
public:
    __aicore__ inline KernelFusedAddScaleCustom() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR y, uint32_t totalLength, uint32_t formerNum,
        uint32_t formerLength, uint32_t tailLength, uint32_t tileLength, float scale)
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
        this->scale = static_cast<T>(scale);
        this->tileNum = (this->blockLength + tileLength - 1) / tileLength;
        this->lastTileLength = this->blockLength - (this->tileNum - 1) * tileLength;

        aGm.SetGlobalBuffer((__gm__ T *)a + offset, this->blockLength);
        bGm.SetGlobalBuffer((__gm__ T *)b + offset, this->blockLength);
        yGm.SetGlobalBuffer((__gm__ T *)y + offset, this->blockLength);
        pipe.InitBuffer(inQueueA, BUFFER_NUM, this->tileLength * sizeof(T));
        pipe.InitBuffer(inQueueB, BUFFER_NUM, this->tileLength * sizeof(T));
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
        LocalTensor<T> aLocal = inQueueA.AllocTensor<T>();
        LocalTensor<T> bLocal = inQueueB.AllocTensor<T>();
        const uint64_t offset = static_cast<uint64_t>(progress) * this->tileLength;
        if ((length * sizeof(T)) % BLOCK_BYTES == 0) {
            DataCopy(aLocal, aGm[offset], length);
            DataCopy(bLocal, bGm[offset], length);
        } else {
            DataCopyExtParams copyParams{1, static_cast<uint32_t>(length * sizeof(T)), 0, 0, 0};
            DataCopyPadExtParams<T> padParams;
            DataCopyPad(aLocal, aGm[offset], copyParams, padParams);
            DataCopyPad(bLocal, bGm[offset], copyParams, padParams);
        }
        inQueueA.EnQue(aLocal);
        inQueueB.EnQue(bLocal);
    }

    __aicore__ inline void Compute(uint32_t length)
    {
        LocalTensor<T> aLocal = inQueueA.DeQue<T>();
        LocalTensor<T> bLocal = inQueueB.DeQue<T>();
        LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        // Only the `length` elements copied in are computed: the rest of the tile is not data.
        Add(yLocal, aLocal, bLocal, length);
        Muls(yLocal, yLocal, this->scale, length);
        outQueueY.EnQue<T>(yLocal);
        inQueueA.FreeTensor(aLocal);
        inQueueB.FreeTensor(bLocal);
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
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueA, inQueueB;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueY;
    GlobalTensor<T> aGm, bGm, yGm;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
    uint32_t tileNum = 0;
    uint32_t lastTileLength = 0;
    T scale{};
};

extern "C" __global__ __aicore__ void fused_add_scale_custom(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelFusedAddScaleCustom<DTYPE_A> op;
    op.Init(a, b, y, tilingData.totalLength, tilingData.formerNum, tilingData.formerLength, tilingData.tailLength,
        tilingData.tileLength, tilingData.scale);
    op.Process();
}
