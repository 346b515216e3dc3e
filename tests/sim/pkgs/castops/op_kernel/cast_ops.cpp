#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void cast_ops(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const uint32_t words = t.words;
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, yBuf, zBuf, workBuf;
    GlobalTensor<int32_t> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ int32_t*)x, words);
    yGm.SetGlobalBuffer((__gm__ int32_t*)y, words);
    zGm.SetGlobalBuffer((__gm__ int32_t*)z, words);
    pipe.InitBuffer(xBuf, words * 4);
    pipe.InitBuffer(yBuf, words * 4);
    pipe.InitBuffer(zBuf, words * 4);
    pipe.InitBuffer(workBuf, words * 4);
    LocalTensor<int32_t> xl = xBuf.Get<int32_t>();
    LocalTensor<int32_t> yl = yBuf.Get<int32_t>();
    LocalTensor<int32_t> zl = zBuf.Get<int32_t>();
    DataCopy(xl, xGm, words);
    DataCopy(yl, yGm, words);
    Duplicate(zl, (int32_t)0, words);
    const uint32_t n = words;   // elements of the 32-bit views; 16-bit views use n of their 2n
    LocalTensor<float> xf = xl.ReinterpretCast<float>(), yf = yl.ReinterpretCast<float>();
    LocalTensor<half> xh = xl.ReinterpretCast<half>(), yh = yl.ReinterpretCast<half>();
    LocalTensor<int16_t> xs = xl.ReinterpretCast<int16_t>(), ys = yl.ReinterpretCast<int16_t>();
    BinaryRepeatParams narrow(1, 1, 1, 4, 8, 8);   // a dst of half the width: 4 blocks a repeat
    BinaryRepeatParams bytes(1, 1, 1, 4, 8, 8);
    if (TILING_KEY_IS(1)) {
        AddReluCast(zl.ReinterpretCast<half>(), xf, yf, n);
    } else if (TILING_KEY_IS(2)) {
        SubReluCast(zl.ReinterpretCast<int8_t>(), xh, yh, n);
    } else if (TILING_KEY_IS(3)) {
        // level 0, int16 -> int8: 128 lanes a repeat, dst 4 blocks a repeat
        AddReluCast(zl.ReinterpretCast<int8_t>(), xs, ys, (uint64_t)128, (uint8_t)(2 * n / 128), bytes);
    } else if (TILING_KEY_IS(4)) {
        uint64_t mask[2] = {0x5555555555555555ull, 0};
        SubReluCast(zl.ReinterpretCast<half>(), xf, yf, mask, (uint8_t)(n / 64), narrow);
    } else if (TILING_KEY_IS(5)) {
        MulCast(zl.ReinterpretCast<int8_t>(), xh, yh, n);
    } else if (TILING_KEY_IS(6)) {
        MulCast(zl.ReinterpretCast<uint8_t>(), xh, yh, (uint64_t)100, (uint8_t)(2 * n / 128), bytes);
    } else if (TILING_KEY_IS(7)) {
        SetDeqScale((half)t.scalar);
        AddDeqRelu(zl.ReinterpretCast<half>(), xl, yl, (int32_t)n);
    } else if (TILING_KEY_IS(8)) {
        AddDeqRelu(zl.ReinterpretCast<half>(), xl, yl, (int32_t)n);  // @no-deq
    } else if (TILING_KEY_IS(9)) {
        // CMPMASK: Compare without dst, read back; then set from y and read back again.
        Compare(xf, yf, CMPMODE::LT, (uint64_t)64, BinaryRepeatParams());
        GetCmpMask(zl);
        SetCmpMask(yl[8]);
        GetCmpMask(zl[8]);
    } else if (TILING_KEY_IS(10)) {
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> zf = zl.ReinterpretCast<float>();
        ReduceSum(zf, xf, work, (int32_t)n);
        const float acc = GetAccVal<float>();
        const int64_t raw = GetAccVal();
        zl.SetValue(1, (int32_t)(raw & 0xffffffff));
        zf.SetValue(2, acc);
    } else if (TILING_KEY_IS(11)) {
        // y holds the byte offsets of 32-byte blocks of x
        Gatherb(zl.ReinterpretCast<uint32_t>(), xl.ReinterpretCast<uint32_t>(),  // @gatherb
                yl.ReinterpretCast<uint32_t>(), (uint8_t)(n / 64), GatherRepeatParams(1, 8));
    } else if (TILING_KEY_IS(12)) {
        Scatter(zl, xl, yl.ReinterpretCast<uint32_t>(), (uint32_t)0, n);  // @scatter
    } else if (TILING_KEY_IS(13)) {
        Scatter(zl, xl, yl.ReinterpretCast<uint32_t>(), (uint32_t)0, (uint64_t)32, (uint8_t)(n / 64), (uint8_t)8);
    } else if (TILING_KEY_IS(14)) {
        DumpAccChkPoint(xl, 5, 2, 3);
        DumpAccChkPoint(xGm, 6, 1, 2);
    } else if (TILING_KEY_IS(15)) {
        LocalTensor<uint64_t> vdeq = workBuf.Get<uint64_t>(16);
        float scales[VDEQ_TENSOR_SIZE];
        int16_t offsets[VDEQ_TENSOR_SIZE];
        bool signs[VDEQ_TENSOR_SIZE];
        for (int i = 0; i < VDEQ_TENSOR_SIZE; ++i) {
            scales[i] = 0.5f * i;
            offsets[i] = (int16_t)(i - 8);
            signs[i] = (i % 2) == 0;
        }
        SetDeqScale(vdeq, VdeqInfo(scales, offsets, signs));
        SetDeqScale(2.0f, (int16_t)3, true);
        DataCopy(zl, vdeq.ReinterpretCast<int32_t>(), 32);
    } else if (TILING_KEY_IS(16) || TILING_KEY_IS(17)) {
        // BilinearInterpolation: x holds src0 (512 halves), y the 32 block offsets and, from its
        // byte 256, 32 weights; scalar bit 0 is repeatMode, bit 1 a 100-lane mask. Key 17 gives
        // the A2 a sharedTmpBuffer of half what it works in.
        TBuf<TPosition::VECCALC> tmpBuf, wBuf;
        pipe.InitBuffer(wBuf, 64);
        pipe.InitBuffer(tmpBuf, TILING_KEY_IS(16) ? 2048 : 1024);
        LocalTensor<half> w = wBuf.Get<half>(32);
        DataCopy(w, yh[128], 32);
        const int32_t mode = (int32_t)t.scalar;
        BilinearInterpolation(zl.ReinterpretCast<half>(), xh, yl.ReinterpretCast<uint32_t>(), w,  // @bilinear
                              (uint64_t)((mode & 2) ? 100 : 128), (uint8_t)2, (mode & 1) != 0, (uint16_t)1,
                              (uint16_t)128, (uint8_t)2, tmpBuf.Get<uint8_t>());
    }
    DataCopy(zGm, zl, words);
}
