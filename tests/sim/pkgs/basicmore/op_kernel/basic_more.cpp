#include "kernel_operator.h"
using namespace AscendC;

using T = DTYPE_X;
// The integer type of T's width, for the shifts.
using I = typename std::conditional<sizeof(T) == 2, int16_t, int32_t>::type;

extern "C" __global__ __aicore__ void basic_more(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inX;
    TQue<QuePosition::VECOUT, 1> outZ;
    GlobalTensor<T> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ T*)x, t.padded);
    zGm.SetGlobalBuffer((__gm__ T*)z, t.padded);
    pipe.InitBuffer(inX, 1, t.padded * sizeof(T));
    pipe.InitBuffer(outZ, 1, t.padded * sizeof(T));
    TBuf<TPosition::VECCALC> other;
    pipe.InitBuffer(other, t.padded * sizeof(float));
    LocalTensor<T> xl = inX.AllocTensor<T>();
    DataCopy(xl, xGm, t.padded);
    inX.EnQue(xl);
    xl = inX.DeQue<T>();
    LocalTensor<T> zl = outZ.AllocTensor<T>();
    Duplicate(zl, (T)0, t.padded);
    const int32_t n = t.count;
    const int32_t perRepeat = 256 / sizeof(T);
    LocalTensor<I> xi = xl.template ReinterpretCast<I>();
    LocalTensor<I> zi = zl.template ReinterpretCast<I>();
    const I s = (I)t.scalar;
    if (TILING_KEY_IS(1)) {
        PairReduceSum(zl, xl, n / perRepeat, perRepeat, 1, 1, 8);
    } else if (TILING_KEY_IS(2)) {
        // In place, halving the tensor as cann-ops' isamax does.
        PairReduceSum(xl, xl, n / perRepeat, perRepeat, 1, 1, 8);
        Adds(zl, xl, (T)0, n / 2);
    } else if (TILING_KEY_IS(3)) {
        ShiftLeft(zi, xi, s, n);
    } else if (TILING_KEY_IS(4)) {
        ShiftRight(zi, xi, s, n);
    } else if (TILING_KEY_IS(5)) {
        UnaryRepeatParams p;
        ShiftRight(zi, xi, s, (uint64_t)perRepeat, (uint8_t)(n / perRepeat), p, true);
    } else if (TILING_KEY_IS(6)) {
        LocalTensor<T> stack;
        bool ok = PopStackBuffer<T, TPosition::LCM>(stack);
        if (ok && stack.GetSize() >= (uint32_t)n) {
            Duplicate(stack, (T)3, n);
            Adds(zl, stack, (T)1, n);
        }
    } else if (TILING_KEY_IS(7)) {
        CrossCoreSetFlag<0, PIPE_MTE3>(1);
        CrossCoreWaitFlag(1);
        Adds(zl, xl, (T)0, n);
    } else if (TILING_KEY_IS(8)) {
        CrossCoreWaitFlag(2);  // @wait-unset
    } else if (TILING_KEY_IS(10)) {
        // Level-0 Cast to the other float width and back: 64 lanes per repeat (the wider type's).
        using O = typename std::conditional<sizeof(T) == 2, float, half>::type;
        LocalTensor<O> o = other.Get<O>();
        const uint8_t rep = (uint8_t)(n / 64);
        UnaryRepeatParams toO(1, 1, sizeof(O) == 4 ? 8 : 4, sizeof(T) == 4 ? 8 : 4);
        UnaryRepeatParams back(1, 1, sizeof(T) == 4 ? 8 : 4, sizeof(O) == 4 ? 8 : 4);
        Cast(o, xl, RoundMode::CAST_RINT, (uint64_t)64, rep, toO);
        Cast(zl, o, RoundMode::CAST_NONE, (uint64_t)64, rep, back);
    } else if (TILING_KEY_IS(11)) {
        // Level-0 Compare x > 0, its bits in z's bytes.
        LocalTensor<T> zero = other.Get<T>();
        Duplicate(zero, (T)0, n);
        LocalTensor<uint8_t> bits = zl.template ReinterpretCast<uint8_t>();
        BinaryRepeatParams p;
        Compare(bits, xl, zero, CMPMODE::GT, (uint64_t)perRepeat, (uint8_t)(n / perRepeat), p);
    } else if (TILING_KEY_IS(12)) {
        InitGlobalMemory(zGm, (uint64_t)n, (T)5);
        outZ.FreeTensor(zl);
        inX.FreeTensor(xl);
        return;
    } else if (TILING_KEY_IS(13)) {
        // Bit-mask Duplicate: every other lane of each repeat.
        uint64_t mask[2] = {0x5555555555555555ull, sizeof(T) == 2 ? 0x5555555555555555ull : 0ull};
        Duplicate(zl, (T)2, mask, (uint8_t)(n / perRepeat), 1, 8);
    } else if (TILING_KEY_IS(20)) {
        // Bitwise ops on the integer view: z = ~(x & s) | (x | s) ... each step separately.
        LocalTensor<I> tmp = other.Get<I>();
        Duplicate(tmp, s, n);
        And(zi, xi, tmp, n);       // z = x & s
        Or(tmp, xi, tmp, n);       // tmp = x | s
        Not(tmp, tmp, n);          // tmp = ~(x | s)
        Or(zi, zi, tmp, n);        // z = (x & s) | ~(x | s)
    } else if (TILING_KEY_IS(21)) {
        Duplicate(zl, (T)1, n);
        MulAddDst(zl, xl, xl, n);  // z = x * x + 1
    } else if (TILING_KEY_IS(31)) {
        // Level-0 MulAddDst (as ops-nn's weight_quant_batch_matmul_v2): the first half of each
        // repeat's lanes, z = x * x + 1; the other lanes keep z's 1.
        Duplicate(zl, (T)1, n);
        BinaryRepeatParams p;
        MulAddDst(zl, xl, xl, (uint64_t)(perRepeat / 2), (uint8_t)(n / perRepeat), p);
    } else if (TILING_KEY_IS(22)) {
        // One sum per repeat, results 1 element apart.
        RepeatReduceSum(zl, xl, n / perRepeat, perRepeat, 0, 1, 1, 8);
    } else if (TILING_KEY_IS(23)) {
        // The high-level Xor on the 16-bit view (its only dtypes).
        LocalTensor<int16_t> x16 = xl.template ReinterpretCast<int16_t>();
        LocalTensor<int16_t> z16 = zl.template ReinterpretCast<int16_t>();
        LocalTensor<int16_t> other16 = other.Get<int16_t>();
        Duplicate(other16, (int16_t)t.scalar, n);
        Xor(z16, x16, other16, n);
    } else if (TILING_KEY_IS(24)) {
        ArithProgression<T>(zl, (T)t.scalar, (T)0.1f, n);
    } else if (TILING_KEY_IS(25)) {
        ArithProgression(zi, (I)t.scalar, (I)3, n);
    } else if (TILING_KEY_IS(26)) {
        ArithProgression<T>(zl, (T)0, (T)-1.0f, n);  // @arith-negative
    } else if (TILING_KEY_IS(27) || TILING_KEY_IS(28)) {
        // Level-0 PairReduceSum / Compare over a source whose first 32-byte block nothing wrote:
        // only the results of those lanes are undefined, and they are overwritten before the store.
        const int32_t perBlock = 32 / sizeof(T);
        LocalTensor<T> part = other.Get<T>();
        Adds(part[perBlock], xl[perBlock], (T)1, n - perBlock);
        if (TILING_KEY_IS(27)) {
            PairReduceSum(zl, part, n / perRepeat, perRepeat, 1, 1, 8);
        } else {
            BinaryRepeatParams p;
            Compare(zl.template ReinterpretCast<uint8_t>(), part, xl, CMPMODE::GT, (uint64_t)perRepeat,
                    (uint8_t)(n / perRepeat), p);
        }
        Duplicate(zl, (T)0, perBlock / 2);
    } else if (TILING_KEY_IS(29)) {
        // Level-0 CompareScalar x <= scalar, continuous mask, its bits in z's bytes.
        UnaryRepeatParams p;
        CompareScalar(zl.template ReinterpretCast<uint8_t>(), xl, (T)t.scalar, CMPMODE::LE, (uint64_t)perRepeat,
                      (uint8_t)(n / perRepeat), p);
    } else if (TILING_KEY_IS(30)) {
        // The bit-mask form into int8_t (as cann-ops radius): every other lane, x > scalar.
        uint64_t mask[2] = {0x5555555555555555ull, sizeof(T) == 2 ? 0x5555555555555555ull : 0ull};
        UnaryRepeatParams p;
        CompareScalar(zl.template ReinterpretCast<int8_t>(), xl, (T)t.scalar, CMPMODE::GT, mask,
                      (uint8_t)(n / perRepeat), p);
    } else if (TILING_KEY_IS(40) || TILING_KEY_IS(41) || TILING_KEY_IS(42)) {
        // Level-0 Select on the bits of x > 0: mode 2 (bits consumed repeat after repeat, src1 is
        // dst itself), mode 1 (a scalar src1, half of each repeat's lanes), mode 0 (the first
        // repeat's bits in every repeat, a bit mask).
        LocalTensor<uint8_t> bits = other.Get<uint8_t>();
        CompareScalar(bits, xl, (T)0, CMPMODE::GT, n);
        BinaryRepeatParams p;
        const uint8_t rep = (uint8_t)(n / perRepeat);
        if (TILING_KEY_IS(40)) {
            Duplicate(zl, (T)-3, n);
            Select(zl, bits, xl, zl, SELMODE::VSEL_TENSOR_TENSOR_MODE, (uint64_t)perRepeat, rep, p);
        } else if (TILING_KEY_IS(41)) {
            Duplicate(zl, (T)7, n);
            Select(zl, bits, xl, (T)5, SELMODE::VSEL_TENSOR_SCALAR_MODE, (uint64_t)(perRepeat / 2), rep, p);
        } else {
            Duplicate(zl, (T)-3, n);
            uint64_t all[2] = {~0ull, sizeof(T) == 2 ? ~0ull : 0ull};
            Select(zl, bits, xl, zl, SELMODE::VSEL_CMPMASK_SPR, all, rep, p);
        }
    } else if (TILING_KEY_IS(43)) {
        LocalTensor<uint8_t> bits = other.Get<uint8_t>();
        BinaryRepeatParams p;
        Select(zl, bits, xl, zl, SELMODE::VSEL_TENSOR_SCALAR_MODE, (uint64_t)perRepeat, 1, p);  // @select-mode1
    } else if (TILING_KEY_IS(44)) {
        // A queue InitBuffer'd with 0 bytes (a block its tiling gives no elements): its buffers
        // still go through Alloc/EnQue/DeQue/Free, and Alloc/Free without a queue hand-off.
        TQue<QuePosition::VECIN, 2> empty;
        pipe.InitBuffer(empty, 2, 0);
        LocalTensor<T> a = empty.AllocTensor<T>();
        LocalTensor<T> b = empty.AllocTensor<T>();
        empty.EnQue(a);
        empty.EnQue(b);
        a = empty.DeQue<T>();
        empty.FreeTensor(a);
        b = empty.DeQue<T>();
        empty.FreeTensor(b);
        a = empty.AllocTensor<T>();
        empty.FreeTensor(a);
        Adds(zl, xl, (T)1, n);
    } else if (TILING_KEY_IS(50)) {
        // Level-0 Axpy, continuous mask: the first half of each repeat's lanes, z = x * s + 2.
        Duplicate(zl, (T)2, n);
        Axpy<T, T>(zl, xl, (T)t.scalar, (uint64_t)(perRepeat / 2), (uint8_t)(n / perRepeat),
                   UnaryRepeatParams(1, 1, 8, 8));
    } else if (TILING_KEY_IS(51)) {
        // Level-0 Axpy without setting the mask (isSetMask false, mask 0): the counter mode's
        // n - 3 elements (ops-nn gemm_v3's form), and the bit-mask form for the last repeat's lane 0.
        Duplicate(zl, (T)2, n);
        SetSyncBaseAddr(0x1000);   // the FFTS base address register: held, nothing else changes
        SetMaskCount();
        SetVectorMask<T, MaskMode::COUNTER>(0, n - 3);
        Axpy<T, T, false>(zl, xl, (T)t.scalar, (uint64_t)0, 1, UnaryRepeatParams(1, 1, 8, 8));
        SetMaskNorm();
        ResetMask();
        uint64_t bits[2] = {1, 0};
        Axpy<T, T>(zl[n - perRepeat], xl[n - perRepeat], (T)t.scalar, bits, 1, UnaryRepeatParams(1, 1, 8, 8));
    } else if (TILING_KEY_IS(52)) {
        // DataCopy UB -> UB with DataCopyEnhancedParams: the plain strided copy, the enhancement unused.
        DataCopyEnhancedParams e(BlockMode::BLOCK_MODE_MATRIX, DeqScale::DEQ_NONE, 0, 0, false, pad_t::PAD_NONE, 0);
        DataCopy(zl, xl, DataCopyParams(1, (uint16_t)(n * sizeof(T) / 32), 0, 0), e);
    } else if (TILING_KEY_IS(9)) {
        ShiftLeft(zi, xi, (I)(sizeof(I) * 8 + 1), n);  // @shift-too-far
    }
    outZ.EnQue(zl);
    zl = outZ.DeQue<T>();
    DataCopy(zGm, zl, t.padded);
    outZ.FreeTensor(zl);
    inX.FreeTensor(xl);
}
