#include "kernel_operator.h"
#include "kernel_utils.h"   // a CANN basic_api/impl header: on the device include path, as here
using namespace AscendC;

// A table in the kernel binary: GM on the device, as an input buffer is.
static const __gm__ int32_t kTable[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};

// One copy per core (bisheng's [[block_local]]), as cann-ops' MatMulV3 keeps its callbacks' context.
__BLOCK_LOCAL__ __inline__ int32_t g_perBlock;

extern "C" __global__ __aicore__ void multi_core(GM_ADDR x, GM_ADDR s, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const int32_t idx = GetBlockIdx();
    const int32_t n = (int32_t)t.blocks;
    TPipe pipe;
    TBuf<TPosition::VECCALC> syncBuf, zeroBuf, rowBuf, fBuf;
    pipe.InitBuffer(syncBuf, TILING_KEY_IS(4) ? 32 : n * 32);
    pipe.InitBuffer(zeroBuf, n * 32);
    pipe.InitBuffer(rowBuf, 32);
    pipe.InitBuffer(fBuf, 512);
    GlobalTensor<int32_t> syncGm, sGm;
    GlobalTensor<float> xGm, yGm;
    syncGm.SetGlobalBuffer((__gm__ int32_t*)GetUserWorkspace(workspace), n * 8);
    sGm.SetGlobalBuffer((__gm__ int32_t*)s, n * 8);
    xGm.SetGlobalBuffer((__gm__ float*)x, 64);
    yGm.SetGlobalBuffer((__gm__ float*)y, 96);
    LocalTensor<int32_t> syncUb = syncBuf.Get<int32_t>();
    LocalTensor<int32_t> zero = zeroBuf.Get<int32_t>();
    LocalTensor<int32_t> row = rowBuf.Get<int32_t>();
    LocalTensor<float> f = fBuf.Get<float>();

    auto zeroSync = [&]() {   // every block zeroes all the sync words, as CANN documents
        Duplicate(zero, 0, n * 8);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(syncGm, zero, n * 8);
        PipeBarrier<PIPE_ALL>();
    };
    auto putRow = [&](int32_t v) {
        Duplicate(row, v, 8);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(sGm[idx * 8], row, 8);
        PipeBarrier<PIPE_ALL>();
    };
    auto sumRows = [&]() {
        int32_t total = 0;
        for (int32_t i = 0; i < n; ++i) total += sGm.GetValue(i * 8);
        return total;
    };
    auto putY = [&](int32_t v) {
        Duplicate(f, (float)v, 8);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(yGm[idx * 8], f, 8);
    };

    if (TILING_KEY_IS(1)) {          // one soft sync: every block sums what all blocks wrote
        zeroSync();
        putRow(idx + 1);
        SyncAll(syncGm, syncUb);
        putY(sumRows());
    } else if (TILING_KEY_IS(2)) {   // two rounds through the same sync words
        zeroSync();
        putRow(idx + 1);
        SyncAll(syncGm, syncUb);
        const int32_t first = sumRows();
        SyncAll(syncGm, syncUb);     // nobody overwrites its row before all have read
        putRow(first);
        SyncAll(syncGm, syncUb);
        putY(sumRows());
    } else if (TILING_KEY_IS(3)) {   // sync words nobody zeroed
        putRow(idx + 1);
        SyncAll(syncGm, syncUb);  // @not-zeroed
    } else if (TILING_KEY_IS(4)) {   // ubWorkspace of one block for four
        zeroSync();
        SyncAll(syncGm, syncUb);  // @small-ub
    } else if (TILING_KEY_IS(6)) {   // static __gm__ data read with DataCopy
        if (idx != 0) return;
        GlobalTensor<int32_t> tableGm;
        tableGm.SetGlobalBuffer((__gm__ int32_t*)kTable, 16);
        LocalTensor<int32_t> t16 = zeroBuf.Get<int32_t>();
        DataCopy(t16, tableGm, 16);
        SetFlag<HardEvent::MTE2_MTE3>(0);
        WaitFlag<HardEvent::MTE2_MTE3>(0);
        DataCopy(sGm, t16, 16);
    } else if (TILING_KEY_IS(7)) {   // the core-type tests of mixed-kernel sources
        if (g_coreType == AIC) {
            return;
        }
        if ASCEND_IS_AIV {
            putRow(7);
        } else {
            putRow(-7);
        }
    } else if (TILING_KEY_IS(8)) {   // CANN's impl-layer calls on raw pointers, as some operators make
        if (idx != 0) return;
        DuplicateImpl<int32_t>((__ubuf__ int32_t*)zero.GetPhyAddr(), 5, n * 8);
        set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        DataCopyUB2GMImpl((__gm__ int32_t*)sGm.GetPhyAddr(), (__ubuf__ int32_t*)zero.GetPhyAddr(),
                          {1, static_cast<uint16_t>(n * 8 * sizeof(int32_t) / ONE_BLK_SIZE), 0, 0});
        PipeBarrier<PIPE_ALL>();
        DataCopyGM2UBImpl((__ubuf__ float*)f.GetPhyAddr(), (__gm__ float*)xGm.GetPhyAddr(), {1, 1, 0, 0});
        set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
        DataCopy(yGm, f, 8);
    } else if (TILING_KEY_IS(14)) {  // the device compiler's built-in variables, as kernels use them
        putRow(static_cast<int32_t>(block_idx) * 10 + (block_idx < block_num - 1 ? 1 : 0));
    } else if (TILING_KEY_IS(16)) {   // the device compiler's block_idx / block_num, a block-local global
        g_perBlock = static_cast<int32_t>(block_idx * 100 + block_num);
        SyncAll();   // every block has written its copy before any reads it back
        putRow(g_perBlock);
    } else if (TILING_KEY_IS(17)) {   // the CTRL register builtins: bit 51 set, read back, cleared
        set_ctrl(sbitset1(get_ctrl(), 51));
        const int32_t set = static_cast<int32_t>((get_ctrl() >> 51) & 1);
        set_ctrl(sbitset0(get_ctrl(), 51));
        putRow(set * 10 + static_cast<int32_t>((get_ctrl() >> 51) & 1));
    } else if (TILING_KEY_IS(18)) {
        set_ctrl(sbitset1(get_ctrl(), 46));  // @hf32
    } else if (TILING_KEY_IS(20)) {   // such a pointer past the UB's end, handed to the impl layer
        if (idx != 0) return;
        __ubuf__ float* past = reinterpret_cast<__ubuf__ float*>(f.GetPhyAddr()) + 64 * 1024;
        DuplicateImpl<float>(past, 1.0f, 8);  // @past-ub
    } else if (TILING_KEY_IS(9)) {
        if (idx != 0) return;
        DuplicateImpl<int32_t>((__ubuf__ int32_t*)sGm.GetPhyAddr(), 5, 8);  // @gm-as-ub
    } else if (TILING_KEY_IS(5)) {   // the hard sync (A2/A3 only)
        SyncAll();  // @hard-sync
    } else if (TILING_KEY_IS(12)) {  // a barrier hidden from CANN's CPU-debug build only
        putRow(idx + 1);
#ifndef __CCE_KT_TEST__
        SyncAll();
#endif
        putY(sumRows());
#if __CCE_AICORE__ == 220   // the unaligned slice below is a DataCopyPad, which 310P lacks
    } else if (TILING_KEY_IS(10)) {
        if (idx != 0) return;
        // bursts of one block, one block apart (whole blocks: a strided DataCopy), packed into UB
        SliceInfo srcA[] = {{0, 47, 8, 1, 64}};
        SliceInfo dstA[] = {{0, 23, 0, 1, 24}};
        DataCopy(f, xGm, dstA, srcA);
        // two dimensions: x as 4 rows of 16, the first block of rows 0 and 2
        SliceInfo src2[] = {{0, 7, 0, 1, 16}, {0, 3, 1, 1, 4}};
        SliceInfo dst2[] = {{0, 7, 0, 1, 8}, {0, 1, 0, 1, 2}};
        DataCopy(f[24], xGm, dst2, src2, 2);
        SetFlag<HardEvent::MTE2_MTE3>(0);
        WaitFlag<HardEvent::MTE2_MTE3>(0);
        DataCopy(yGm, f, 40);
        // scattered with 3-element gaps (12 bytes: not whole blocks, so a DataCopyPad in bytes)
        SliceInfo srcB[] = {{0, 23, 0, 1, 24}};
        SliceInfo dstB[] = {{40, 79, 3, 1, 96}};
        DataCopy(yGm, f, dstB, srcB);
    } else if (TILING_KEY_IS(11)) {
        if (idx != 0) return;
        SliceInfo src[] = {{0, 7, 0, 1}};
        SliceInfo dst[] = {{0, 7, 0, 1}};
        DataCopy(f, xGm, dst, src);  // @no-shape
    } else if (TILING_KEY_IS(13)) {  // the impl layer's DataCopyPad on raw pointers, both forms
        if (idx != 0) return;
        // x[0:5] to UB padded with 7.0 up to the block, then as 5 and as 8 elements to y[0:], y[8:]
        DataCopyPadGm2UBImpl((__ubuf__ float*)f.GetPhyAddr(), (__gm__ float*)xGm.GetPhyAddr(),
                             DataCopyExtParams{1, 5 * sizeof(float), 0, 0, 0},
                             DataCopyPadExtParams<float>{true, 0, 3, 7.0f});
        DataCopyPadGm2UBImpl((__ubuf__ float*)f[8].GetPhyAddr(), (__gm__ float*)xGm[8].GetPhyAddr(),
                             DataCopyParams{1, 5 * sizeof(float), 0, 0}, DataCopyPadParams{false, 0, 0, 0});
        SetFlag<HardEvent::MTE2_MTE3>(0);
        WaitFlag<HardEvent::MTE2_MTE3>(0);
        DataCopyPadUB2GMImpl((__gm__ float*)yGm.GetPhyAddr(), (__ubuf__ float*)f.GetPhyAddr(),
                             DataCopyExtParams{1, 8 * sizeof(float), 0, 0, 0});
        DataCopyPadUB2GMImpl((__gm__ float*)yGm[8].GetPhyAddr(), (__ubuf__ float*)f[8].GetPhyAddr(),
                             DataCopyParams{1, 5 * sizeof(float), 0, 0});
    } else if (TILING_KEY_IS(15)) {  // the CCE builtins below DataCopyPad (cann-ops' MatMulV3 calls them)
        if (idx != 0) return;
        const float minusOne = -1.0f;
        uint32_t padBits;
        memcpy(&padBits, &minusOne, sizeof(padBits));
        set_mov_pad_val(padBits);
        // 3 rows of 5 floats, 3 floats apart in GM; each UB row is 1 pad, the 5 floats, 2 pads
        copy_gm_to_ubuf_align_b32((__ubuf__ void*)f.GetPhyAddr(), (__gm__ void*)xGm.GetPhyAddr(), 0, 3, 5 * 4, 1, 2,
                                  3 * 4, 0);
        set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
        // back out as whole UB rows, 2 floats apart in GM
        copy_ubuf_to_gm_align_b32((__gm__ void*)yGm.GetPhyAddr(), (__ubuf__ void*)f.GetPhyAddr(), 0, 3, 8 * 4, 0, 0,
                                  0, 2 * 4);
    } else if (TILING_KEY_IS(19)) {  // GetPhyAddr as CANN's CPU build and the device use it
        if (idx != 0) return;
        DataCopy(f, xGm, 16);
        set_flag(PIPE_MTE2, PIPE_S, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_S, EVENT_ID0);
        // the CPU build's form: a pointer through reinterpret_cast, element arithmetic on it
        auto p = reinterpret_cast<__ubuf__ float*>(f.GetPhyAddr(8));
        for (int32_t i = 0; i < 8; ++i) *(p + i) = *(p + i) * 2.0f;
        set_flag(PIPE_S, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_S, PIPE_MTE3, EVENT_ID0);
        // the device's form: the UB address as an integer, byte arithmetic on it
        const uint64_t a = f.GetPhyAddr();
        DataCopyPadUB2GMImpl((__gm__ float*)yGm.GetPhyAddr(), reinterpret_cast<__ubuf__ float*>(a + 8 * sizeof(float)),
                             DataCopyExtParams{1, 8 * sizeof(float), 0, 0, 0});
        DataCopyPadUB2GMImpl((__gm__ float*)yGm.GetPhyAddr(8), reinterpret_cast<__ubuf__ float*>(f.GetPhyAddr()),
                             DataCopyExtParams{1, 8 * sizeof(float), 0, 0, 0});
        putRow(static_cast<int32_t>(f[4].GetPhyAddr() - f.GetPhyAddr()));   // a distance in bytes
#endif
    }
}
