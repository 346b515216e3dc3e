#include <cassert>
#include "kernel_operator.h"
using namespace AscendC;

class KernelFaulty {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, uint32_t length, uint32_t bufferBytes)
    {
        length_ = length;
        ASSERT(GetTPipePtr() == &pipe);
        // mode 26: a wrong per-block start offset (every block gets the first rows)
        const uint32_t start = TILING_KEY_IS(26) ? 0 : GetBlockIdx() * length;
        xGm.SetGlobalBuffer((__gm__ float*)x + start, length);
        yGm.SetGlobalBuffer((__gm__ float*)y + start, length);
        ws_ = GetUserWorkspace(workspace);
        yBase_ = y;
        pipe.InitBuffer(inQueueX, 2, bufferBytes);
        pipe.InitBuffer(outQueueY, 1, bufferBytes);
        pipe.InitBuffer(tmpBuf, bufferBytes);   // @init-tmp
        if (TILING_KEY_IS(60)) {
            // As cann-ops Neg: a TBuf of `length` bytes, then the one the Cast below runs into.
            pipe.InitBuffer(halfBuf, length);
            pipe.InitBuffer(nextBuf, length);   // @init-next
        }
        if (TILING_KEY_IS(61) || TILING_KEY_IS(64)) {
            // As cann-ops CrossEntropyLoss for float32: a 0-byte TBuf shares its address with the next.
            pipe.InitBuffer(halfBuf, 0);
            pipe.InitBuffer(nextBuf, 32);
        }
    }
    __aicore__ inline void Run()
    {
        LocalTensor<float> x = inQueueX.AllocTensor<float>();
        if (TILING_KEY_IS(2)) {
            DataCopy(x, xGm, 10);   // @misaligned
        } else if (TILING_KEY_IS(5)) {
            DataCopy(x, xGm[length_ - 8], 16);   // @gm-oob
        } else if (TILING_KEY_IS(8)) {
            DataCopy(x[3], xGm, 8);   // @ub-unaligned
        } else {
            DataCopy(x, xGm, length_);
        }
        if (TILING_KEY_IS(3)) {
            ASSERT(GetBlockIdx() != 2);   // @assert
        }
        if (TILING_KEY_IS(4)) {
            LocalTensor<float> none = outQueueY.DeQue<float>();   // @deque-empty
        }
        if (TILING_KEY_IS(6)) {
            LocalTensor<float> a = outQueueY.AllocTensor<float>();
            LocalTensor<float> b = outQueueY.AllocTensor<float>();   // @alloc-twice
        }
        inQueueX.EnQue(x);
        x = inQueueX.DeQue<float>();
        LocalTensor<float> y = outQueueY.AllocTensor<float>();
        if (TILING_KEY_IS(7)) {
            Muls(y, x, 2.0f, length_ + 64);   // @count-too-big
        } else if (TILING_KEY_IS(19)) {
            // Only block 0 fills tmpBuf: each core has its own UB, so block 1 reads nothing.
            LocalTensor<float> t = tmpBuf.Get<float>();
            if (GetBlockIdx() == 0) Duplicate(t, 1.0f, length_);
            Add(y, x, t, length_);   // @other-blocks-ub
        } else if (TILING_KEY_IS(18)) {
            LocalTensor<float> t = tmpBuf.Get<float>();
            Duplicate(t, 1.0f, length_ / 2);
            Add(y, x, t, length_);   // @uninit-read
        } else if (TILING_KEY_IS(20)) {
            // Block 1 passes a work buffer of 8 elements; ReduceMax with index needs 16 here.
            LocalTensor<float> w = tmpBuf.GetWithOffset<float>(GetBlockIdx() == 1 ? 8 : 64, 0);
            Duplicate(y, 0.0f, length_);
            ReduceMax<float>(y, x, w, length_, true);   // @work-too-small
        } else if (TILING_KEY_IS(22)) {
            LocalTensor<float> w = tmpBuf.GetWithOffset<float>(8, 0);
            Duplicate(y, 0.0f, length_);
            ReduceMax<float>(y, x, w, 64, 4, 8, true);   // @work-too-small-level0
        } else if (TILING_KEY_IS(21)) {
            // Byte offsets reversing x, except that the last one points one element past it.
            LocalTensor<uint32_t> off = tmpBuf.Get<uint32_t>();
            for (uint32_t i = 0; i < length_; ++i) off.SetValue(i, (length_ - 1 - i) * sizeof(float));
            off.SetValue(length_ - 1, length_ * sizeof(float));
            Gather(y, x, off, (uint32_t)0, length_);   // @gather-oob
        } else if (TILING_KEY_IS(60)) {
            // `length` floats cast to half into a tensor of length / 2 halves: the device writes
            // on into nextBuf, and the cast back reads them from there.
            LocalTensor<half> h = halfBuf.Get<half>();
            Cast(h, x, RoundMode::CAST_NONE, length_);   // @cast-past
            Cast(y, h, RoundMode::CAST_NONE, length_);
        } else if (TILING_KEY_IS(61)) {
            LocalTensor<float> none = halfBuf.Get<float>();   // 0 elements
            WholeReduceSum<float>(none, x, 64, 1, 1, 1, 8);   // @reduce-into-empty
            SetFlag<HardEvent::V_S>(EVENT_ID0);
            WaitFlag<HardEvent::V_S>(EVENT_ID0);
            Duplicate(y, nextBuf.Get<float>().GetValue(0), length_);
        } else if (TILING_KEY_IS(64)) {
            // Scalar access past a 0-element tensor (as cann-ops CrossEntropyLossGrad's short rows).
            LocalTensor<float> none = halfBuf.Get<float>();
            none.SetValue(3, 5.0f);   // @set-past
            Duplicate(y, none.GetValue(3) + nextBuf.Get<float>().GetValue(3), length_);   // @get-past
        } else if (TILING_KEY_IS(62)) {
            // tmpBuf ends where the UB ends (buffer_bytes 49152): 32 bytes past the UB.
            LocalTensor<float> t = tmpBuf.Get<float>();
            Duplicate(t, 1.0f, t.GetSize() + 8);   // @past-ub
            Muls(y, x, 2.0f, length_);
        } else if (TILING_KEY_IS(63)) {
            // Reads 64 floats past x, from inQueueX's second buffer, which nothing wrote, and
            // writes them past y into tmpBuf, which goes to GM.
            Adds(y, x, 0.0f, length_ + 64);   // @read-neighbour
            DataCopy(yGm, tmpBuf.Get<float>(), 64);   // @store-neighbour
        } else if (TILING_KEY_IS(23)) {
            // Fills all of tmpBuf, which lies past the UB when the buffers do not fit.
            LocalTensor<float> t = tmpBuf.Get<float>();
            Duplicate(t, 1.0f, t.GetSize());   // @fill-tmp
            Muls(y, x, 2.0f, length_);
        } else {
            Muls(y, x, 2.0f, length_);
        }
        if (TILING_KEY_IS(11) && GetBlockIdx() == 1) {
            *((volatile float*)(uintptr_t)64) = x.GetValue(0);   // @segv
        }
        if (TILING_KEY_IS(12)) {
            assert(length_ == 0);
        }
        if (TILING_KEY_IS(16) && GetBlockIdx() != 0) {
            SyncAll();   // @syncall-not-block0
        }
        if (TILING_KEY_IS(17) && GetBlockIdx() + 1 != GetBlockNum()) {
            SyncAll();   // @syncall-not-last
        }
        if (TILING_KEY_IS(9)) {
            AscendC::printf("block %d of %d: first %f\n", (int)GetBlockIdx(), (int)GetBlockNum(), (double)x.GetValue(0));
            DumpTensor(x, 7, 3);
        }
        if (TILING_KEY_IS(13)) {
            // Blocks exchange data through the workspace: store, barrier, read a neighbour's part.
            GlobalTensor<float> wsGm;
            wsGm.SetGlobalBuffer((__gm__ float*)ws_, length_ * GetBlockNum());
            DataCopy(wsGm[GetBlockIdx() * length_], y, length_);
            SyncAll();   // @syncall
            uint32_t next = (GetBlockIdx() + 1) % GetBlockNum();
            DataCopy(y, wsGm[next * length_], length_);
            SyncAll();
            DataCopy(wsGm[next * length_], y, length_);   // reuse after the barrier: not a race
        }
        if (TILING_KEY_IS(50) || TILING_KEY_IS(51) || TILING_KEY_IS(52) || TILING_KEY_IS(53)) {
            // Every block zeroes the same workspace bytes before SyncAll (as cann-ops DiagFlat and
            // PadV3GradReplication), with InitGlobalMemory (50, 51) or the impl layer's
            // DuplicateImpl and DataCopyUB2GMImpl (52, 53); in 51 and 53 block 1 stores ones.
            GlobalTensor<float> wsGm;
            wsGm.SetGlobalBuffer((__gm__ float*)ws_, length_);
            const float v = (TILING_KEY_IS(51) || TILING_KEY_IS(53)) && GetBlockIdx() == 1 ? 1.0f : 0.0f;
            if (TILING_KEY_IS(50) || TILING_KEY_IS(51)) {
                InitGlobalMemory(wsGm, length_, v);   // @init-gm
            } else {
                LocalTensor<float> t = tmpBuf.Get<float>();
                __ubuf__ float* ub = (__ubuf__ float*)t.GetPhyAddr();
                DuplicateImpl(ub, v, (int32_t)length_);
                SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
                WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
                DataCopyUB2GMImpl((__gm__ float*)ws_, ub, DataCopyParams(1, length_ * sizeof(float) / 32, 0, 0));   // @impl-store
            }
            SyncAll();
            Adds(y, y, wsGm.GetValue(GetBlockIdx()), length_);
        }
        if (TILING_KEY_IS(54) || TILING_KEY_IS(55)) {
            // Every block stores a tile to the same workspace bytes (as cann-ops' STFT copies its
            // windows with the gap nfft..nfftAlign of each row never written): the first half
            // ones, the second half values computed from UB nothing wrote, which differ per
            // block; before SyncAll (55) or without it (54). Garbage against garbage is no race.
            GlobalTensor<float> wsGm;
            wsGm.SetGlobalBuffer((__gm__ float*)ws_, length_);
            LocalTensor<float> t = tmpBuf.Get<float>();
            Duplicate(t, 1.0f, length_ / 2);
            LocalTensor<int32_t> ti = t.ReinterpretCast<int32_t>();
            Adds(ti[length_ / 2], ti[length_ / 2], (int32_t)GetBlockIdx(), length_ / 2);
            SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
            WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
            DataCopy(wsGm, t, length_);
            if (TILING_KEY_IS(55)) SyncAll();
        }
        if (TILING_KEY_IS(40)) {
            // Reads the output back before anything stored to it: device memory, not zeros.
            DataCopy(y, yGm, length_);   // @output-before-write
        }
        if (TILING_KEY_IS(41)) {
            GlobalTensor<float> wsGm;
            wsGm.SetGlobalBuffer((__gm__ float*)ws_ + GetBlockIdx() * length_, length_);
            float first = wsGm.GetValue(0);   // @workspace-before-write
            Adds(y, y, first, length_);
        }
        if (TILING_KEY_IS(10)) {
            // Round trip through the user workspace (past the library's reserved part).
            GlobalTensor<float> wsGm;
            wsGm.SetGlobalBuffer((__gm__ float*)ws_ + GetBlockIdx() * length_, length_);
            DataCopy(wsGm, y, length_);
            Duplicate(y, 0.0f, length_);
            DataCopy(y, wsGm, length_);
        }
        if (TILING_KEY_IS(48) || TILING_KEY_IS(49)) {
            // Scratch through the workspace: a tile whose second half nothing wrote is stored
            // (undefined values kept in GM scratch, not a use); 48 reads back only the defined
            // half, 49 all of it, so the undefined half reaches y.
            GlobalTensor<float> wsGm;
            wsGm.SetGlobalBuffer((__gm__ float*)ws_ + GetBlockIdx() * length_, length_);
            LocalTensor<float> t = tmpBuf.Get<float>();
            DataCopy(t, xGm, length_ / 2);
            DataCopy(wsGm, t, length_);
            DataCopy(t, wsGm, TILING_KEY_IS(48) ? length_ / 2 : length_);   // @ws-load
            Adds(y, t, 0.0f, TILING_KEY_IS(48) ? length_ / 2 : length_);
        }
        outQueueY.EnQue(y);
        inQueueX.FreeTensor(x);
        y = outQueueY.DeQue<float>();
        if (TILING_KEY_IS(43)) {
            LocalTensor<float> kept = inQueueX.AllocTensor<float>();   // @held-at-exit
        }
        if (TILING_KEY_IS(47)) {
            LocalTensor<float> queued = inQueueX.AllocTensor<float>();   // @queued-at-exit
            Duplicate(queued, 0.0f, length_);
            inQueueX.EnQue(queued);
        }
        if (TILING_KEY_IS(44)) {
            outQueueY.EnQue(y);
            outQueueY.EnQue(y);   // @enque-past-depth
        }
        if (TILING_KEY_IS(45)) {
            inQueueX.FreeTensor(y);   // @free-foreign
        }
        if (TILING_KEY_IS(46)) {
            inQueueX.FreeTensor(x);   // @free-twice
        }
        if (TILING_KEY_IS(14) || TILING_KEY_IS(15)) {
            // Every block stores to the first `length_` elements of y.
            GlobalTensor<float> shared;
            shared.SetGlobalBuffer((__gm__ float*)yBase_, length_);
            if (TILING_KEY_IS(15)) SetAtomicAdd<float>();
            DataCopy(shared, y, length_);   // @shared-store
            SetAtomicNone();
        } else if (TILING_KEY_IS(24) || TILING_KEY_IS(25)) {
            // Every block stores the same values to the first `length_` elements of y (as a kernel
            // that has each core copy the whole output), the others their own part as well, so
            // all of y is written; in mode 25 block 2 changes element 5.
            GlobalTensor<float> shared;
            shared.SetGlobalBuffer((__gm__ float*)yBase_, length_);
            Duplicate(y, 3.0f, length_);
            if (TILING_KEY_IS(25) && GetBlockIdx() == 2) y.SetValue(5, 4.0f);
            DataCopy(shared, y, length_);   // @same-store
            if (GetBlockIdx() > 0) DataCopy(yGm, y, length_);
        } else if (TILING_KEY_IS(65) || TILING_KEY_IS(66)) {
            // As ops-nn scatter_elements_v2's offset tables: a GlobalTensor given its buffer
            // without a size, then tested by GetSize() (mode 66: given a size first, which the
            // device keeps).
            GlobalTensor<float> table;
            if (TILING_KEY_IS(66)) table.SetGlobalBuffer((__gm__ float*)yBase_, length_);
            table.SetGlobalBuffer((__gm__ float*)yBase_ + GetBlockIdx() * length_);
            if (table.GetSize() > 0) {   // @unsized-size
                DataCopy(yGm, x, length_);
            }
        } else if (TILING_KEY_IS(67)) {
            // As ops-nn's dynamic_block_quant: no workspace asked for, and a return on a null
            // user workspace, which the device's GetUserWorkspace never gives
            if (ws_ != nullptr) {
                DataCopy(yGm, y, length_);
            }
        } else if (TILING_KEY_IS(68)) {
            GlobalTensor<float> wsGm;   // the user workspace used, though none was asked for
            wsGm.SetGlobalBuffer((__gm__ float*)ws_, 8);
            DataCopy(wsGm, y, 8);   // @no-workspace
        } else if (TILING_KEY_IS(42)) {
            DataCopy(yGm, y, length_ - 4);   // @ragged-store
        } else {
            DataCopy(yGm, y, length_);   // @store
        }
        outQueueY.FreeTensor(y);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueueX;
    TQue<TPosition::VECOUT, 1> outQueueY;
    TBuf<TPosition::VECCALC> tmpBuf;
    TBuf<TPosition::VECCALC> halfBuf, nextBuf;
    GlobalTensor<float> xGm, yGm;
    GM_ADDR ws_ = nullptr;
    GM_ADDR yBase_ = nullptr;
    uint32_t length_ = 0;
};

extern "C" __global__ __aicore__ void faulty(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    if (TILING_KEY_IS(10)) {   // the library's workspace pointer, set and checked as cann-ops' ForeachNorm does
        ASSERT(GetSysWorkSpacePtr() == workspace);   // the entry set it already (cann-ops' Rfft1D relies on it)
        SetSysWorkspace(workspace);
        SetSysWorkspace(x);   // ignored: the first one set stays
        ASSERT(GetSysWorkSpacePtr() == workspace);
    }
    KernelFaulty op;
    op.Init(x, y, workspace, t.length, t.bufferBytes);
    op.Run();
}
