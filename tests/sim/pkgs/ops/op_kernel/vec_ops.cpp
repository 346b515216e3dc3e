#include "kernel_operator.h"
using namespace AscendC;

using T = DTYPE_X;

class KernelVecOps {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t padded, uint32_t count, float scalar)
    {
        padded_ = padded;
        count_ = count;
        scalar_ = scalar;
        xGm.SetGlobalBuffer((__gm__ T*)x, padded);
        yGm.SetGlobalBuffer((__gm__ T*)y, padded);
        zGm.SetGlobalBuffer((__gm__ T*)z, padded);
        pipe.InitBuffer(inX, 1, padded * sizeof(T));
        pipe.InitBuffer(inY, 1, padded * sizeof(T));
        pipe.InitBuffer(outZ, 1, padded * sizeof(T));
        pipe.InitBuffer(work, padded * sizeof(T));
        pipe.InitBuffer(wide, padded * sizeof(float));
        pipe.InitBuffer(narrow, padded * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<T> x = inX.AllocTensor<T>();
        LocalTensor<T> y = inY.AllocTensor<T>();
        DataCopy(x, xGm, padded_);
        DataCopy(y, yGm, padded_);
        inX.EnQue(x);
        inY.EnQue(y);
        x = inX.DeQue<T>();
        y = inY.DeQue<T>();
        LocalTensor<T> z = outZ.AllocTensor<T>();
        Duplicate(z, (T)0, padded_);
        LocalTensor<T> w = work.Get<T>();
        const T s = (T)scalar_;
        const int32_t n = count_;
        if (TILING_KEY_IS(1)) { Add(z, x, y, n); }
        else if (TILING_KEY_IS(2)) { Sub(z, x, y, n); }
        else if (TILING_KEY_IS(3)) { Mul(z, x, y, n); }
        else if (TILING_KEY_IS(4)) { Div(z, x, y, n); }
        else if (TILING_KEY_IS(5)) { Max(z, x, y, n); }
        else if (TILING_KEY_IS(6)) { Min(z, x, y, n); }
        else if (TILING_KEY_IS(10)) { Adds(z, x, s, n); }
        else if (TILING_KEY_IS(11)) { Muls(z, x, s, n); }
        else if (TILING_KEY_IS(12)) { Maxs(z, x, s, n); }
        else if (TILING_KEY_IS(13)) { Mins(z, x, s, n); }
        else if (TILING_KEY_IS(14)) { LeakyRelu(z, x, s, n); }
        else if (TILING_KEY_IS(20)) { Exp(z, x, n); }
        else if (TILING_KEY_IS(21)) { Ln(z, x, n); }
        else if (TILING_KEY_IS(22)) { Abs(z, x, n); }
        else if (TILING_KEY_IS(23)) { Sqrt(z, x, n); }
        else if (TILING_KEY_IS(24)) { Rsqrt(z, x, n); }
        else if (TILING_KEY_IS(25)) { Reciprocal(z, x, n); }
        else if (TILING_KEY_IS(26)) { Relu(z, x, n); }
        else if (TILING_KEY_IS(30)) { Duplicate(z, s, n); }
        else if (TILING_KEY_IS(40)) { ReduceSum<T>(z, x, w, n); }
        else if (TILING_KEY_IS(41)) { ReduceMax<T>(z, x, w, n); }
        else if (TILING_KEY_IS(42)) { ReduceMin<T>(z, x, w, n); }
        else if (TILING_KEY_IS(50)) {
            // Round trip through the other float width.
            if constexpr (sizeof(T) == 2) {
                LocalTensor<float> f = wide.Get<float>();
                Cast(f, x, RoundMode::CAST_NONE, n);
                Muls(f, f, scalar_, n);
                Cast(z, f, RoundMode::CAST_RINT, n);
            } else {
                LocalTensor<half> h = narrow.Get<half>();
                Cast(h, x, RoundMode::CAST_RINT, n);
                Cast(z, h, RoundMode::CAST_NONE, n);
            }
        }
        else if (TILING_KEY_IS(51)) {
            if constexpr (sizeof(T) == 4) {
                LocalTensor<half> h = narrow.Get<half>();
                Cast(h, x, RoundMode::CAST_FLOOR, n);
                Cast(z, h, RoundMode::CAST_NONE, n);
            }
        }
        else if (TILING_KEY_IS(52)) {
            if constexpr (sizeof(T) == 4) {
                LocalTensor<int32_t> i = wide.Get<int32_t>();
                Cast(i, x, RoundMode::CAST_ROUND, n);
                Cast(z, i, RoundMode::CAST_NONE, n);
            }
        }
        else if (TILING_KEY_IS(53)) {
            // float -> float rounds to an integral value; the mode comes in as the scalar.
            if constexpr (sizeof(T) == 4) { Cast(z, x, (RoundMode)(int)scalar_, n); }
        }
        else if (TILING_KEY_IS(54)) {
            // The same through the level-0 form: 64 lanes per repeat, n / 64 repeats.
            if constexpr (sizeof(T) == 4) {
                Cast(z, x, (RoundMode)(int)scalar_, 64, n / 64, UnaryRepeatParams(1, 1, 8, 8));
            }
        }
        else if (TILING_KEY_IS(60)) { DataCopy(z, y, padded_); Axpy(z, x, s, n); }
        else if (TILING_KEY_IS(61)) {
            DataCopy(w, x, padded_);
            for (int32_t i = 0; i < n; ++i) {
                z.SetValue(i, w.GetValue(n - 1 - i));
            }
        }
        else if (TILING_KEY_IS(70)) {
            // Level 0, continuous mask: half of each repeat, 4 repeats, dense strides.
            Add(z, x, y, (uint64_t)(128 / sizeof(T)), 4, BinaryRepeatParams(1, 1, 1, 8, 8, 8));
        }
        else if (TILING_KEY_IS(71)) {
            // Level 0, bit mask (every other element) and a dst repeat stride of 16 blocks.
            uint64_t mask[2] = {0x5555555555555555ull, 0x5555555555555555ull};
            Mul(z, x, y, mask, 2, BinaryRepeatParams(1, 1, 1, 16, 8, 8));
        }
        else if (TILING_KEY_IS(72)) {
            // Level 0 unary with a source block stride of 2: reads every other 32-byte block.
            Muls(z, x, s, (uint64_t)(256 / sizeof(T)), 2, UnaryRepeatParams(1, 2, 8, 16));
        }
        else if (TILING_KEY_IS(73)) {
            LocalTensor<uint8_t> bits = narrow.Get<uint8_t>();
            Compare(bits, x, y, CMPMODE::LT, n);
            Select(z, bits, x, y, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
        }
        else if (TILING_KEY_IS(74)) {
            LocalTensor<uint8_t> bits = narrow.Get<uint8_t>();
            CompareScalar(bits, x, s, CMPMODE::GT, n);
            Select(z, bits, x, (T)-1, SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
        }
        else if (TILING_KEY_IS(90)) {
            // One sum per 256-byte repeat, stored 2 results apart; the last repeat uses a half mask.
            const int32_t per = 256 / sizeof(T);
            WholeReduceSum<T>(z, x, per, 3, 2, 1, 8);
            WholeReduceSum<T>(z[8], x[3 * per], per / 2, 1, 1, 1, 8);
        }
        else if (TILING_KEY_IS(100)) {
            // Max and its lane index per repeat, 4 dense repeats, pairs stored back to back.
            WholeReduceMax<T>(z, x, 256 / sizeof(T), 4, 1, 1, 8);
        }
        else if (TILING_KEY_IS(101)) {
            // [index, value] pairs one pair apart (dstRepStride 2).
            WholeReduceMin<T>(z, x, 256 / sizeof(T), 3, 2, 1, 8, ReduceOrder::ORDER_INDEX_VALUE);
        }
        else if (TILING_KEY_IS(102)) {
            // Every other lane, source blocks two apart and repeats 16 blocks apart; values only.
            uint64_t mask[2] = {0x5555555555555555ull, 0x5555555555555555ull};
            WholeReduceMax<T>(z, x, mask, 2, 1, 2, 16, ReduceOrder::ORDER_ONLY_VALUE);
        }
        else if (TILING_KEY_IS(103)) {
            // The first `count` lanes of each repeat; uint32 indices only.
            WholeReduceMin<T>(z, x, n, 3, 1, 1, 8, ReduceOrder::ORDER_ONLY_INDEX);
        }
        else if (TILING_KEY_IS(110)) {
            BlockReduceSum<T>(z, x, 4, 256 / sizeof(T), 1, 1, 8);
        }
        else if (TILING_KEY_IS(111)) {
            // Mask of `count` lanes (a block and a half fewer than a repeat), results 16 apart.
            BlockReduceMax<T>(z, x, 2, n, 2, 1, 8);
        }
        else if (TILING_KEY_IS(112)) {
            uint64_t mask[2] = {0x00ff00ff00ff00ffull, 0x00ff00ff00ff00ffull};
            BlockReduceMin<T>(z, x, 2, mask, 1, 2, 16);
        }
        else if (TILING_KEY_IS(120)) {
            // Count form: z[i] = x[count - 1 - i] through byte offsets.
            LocalTensor<uint32_t> off = wide.Get<uint32_t>();
            for (int32_t i = 0; i < n; ++i) off.SetValue(i, (uint32_t)((n - 1 - i) * sizeof(T)));
            Gather(z, x, off, (uint32_t)0, (uint32_t)n);
        }
        else if (TILING_KEY_IS(121)) {
            // Level 0: offsets (7 i mod 256) elements past a base of 32 bytes, every other lane,
            // two repeats 16 blocks apart in dst.
            LocalTensor<uint32_t> off = wide.Get<uint32_t>();
            for (int32_t i = 0; i < 512; ++i) off.SetValue(i, (uint32_t)(((7 * i) % 256) * sizeof(T)));
            uint64_t mask[2] = {0x5555555555555555ull, 0x5555555555555555ull};
            Gather(z, x, off, (uint32_t)32, mask, 2, 16);
        }
        else if (TILING_KEY_IS(130)) {
            Brcb(z, x, 4, {2, 16});
        }
        else if (TILING_KEY_IS(132) || TILING_KEY_IS(133)) {
            // Two repeats over a source whose first 8 elements alone were written (ops-nn's
            // rms_norm: one element per row, repeatTime = rows); 132 keeps the 8 blocks of
            // those, 133 copies all 16 out.
            Duplicate(w, s, 8);
            Brcb(w[512 / sizeof(T)], w, 2, {1, 8});
            DataCopy(z, w[512 / sizeof(T)], (TILING_KEY_IS(132) ? 8 : 16) * 32 / sizeof(T));
        }
        else if (TILING_KEY_IS(131)) {
            // The 16x16 transpose of 2-byte elements (x's bytes as uint16 for float).
            LocalTensor<uint16_t> zz = z.template ReinterpretCast<uint16_t>();
            LocalTensor<uint16_t> xx = x.template ReinterpretCast<uint16_t>();
            Transpose(zz, xx);
            Transpose(zz[256], xx[256]);
        }
        else if (TILING_KEY_IS(140)) {
            // Two rows of `count` elements with 1 left and 2 right padding from SetPadValue.
            SetPadValue(s);
            DataCopyPad(w, xGm, DataCopyExtParams(2, n * sizeof(T), 0, 0, 0), DataCopyPadExtParams<T>(false, 1, 2, (T)0));
            DataCopy(z, w, 2 * 32 / sizeof(T));
        }
        else if (TILING_KEY_IS(141)) {
            // No padding, unaligned rows: the hardware repeats each row's first element.
            DataCopyPad(w, xGm, DataCopyExtParams(2, n * sizeof(T), 0, 0, 0), DataCopyPadExtParams<T>(false, 0, 0, (T)0));
            DataCopy(z, w, 2 * 32 / sizeof(T));
        }
        else if (TILING_KEY_IS(142)) {
            // Left padding with neither isPad nor SetPadValue: undefined values, then read.
            DataCopyPad(w, xGm, DataCopyExtParams(1, n * sizeof(T), 0, 0, 0), DataCopyPadExtParams<T>(false, 1, 0, (T)0));
            DataCopy(z, w, 32 / sizeof(T));
        }
        else if (TILING_KEY_IS(143)) {
            // The padding register keeps isPad's value for a later isPad == false copy.
            DataCopyPad(w, xGm, DataCopyExtParams(1, n * sizeof(T), 0, 0, 0), DataCopyPadExtParams<T>(true, 0, 1, s));
            DataCopyPad(w[32 / sizeof(T)], xGm, DataCopyExtParams(1, n * sizeof(T), 0, 0, 0),
                        DataCopyPadExtParams<T>(false, 1, 0, (T)0));
            DataCopy(z, w, 2 * 32 / sizeof(T));
        }
        else if (TILING_KEY_IS(150)) {
            // Level 0: max and its index over 4 dense repeats.
            ReduceMax<T>(z, x, w, 256 / sizeof(T), 4, 8, true);
        }
        else if (TILING_KEY_IS(151)) {
            // Level 0: min of every other lane of 3 repeats 16 blocks apart, no index.
            uint64_t mask[2] = {0x5555555555555555ull, 0x5555555555555555ull};
            ReduceMin<T>(z, x, w, mask, 3, 16);
        }
        else if (TILING_KEY_IS(152)) {
            // Level 0: sum of the first `count` lanes of 5 repeats.
            ReduceSum<T>(z, x, w, n, 5, 8);
        }
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
        else if (TILING_KEY_IS(144)) {
            // The Ascend 950 headers' PaddingMode template parameter.
            DataCopyPad<T, PaddingMode::Normal>(w, xGm, DataCopyExtParams(1, n * sizeof(T), 0, 0, 0),
                                                DataCopyPadExtParams<T>(true, 0, 1, s));
            DataCopy(z, w, 32 / sizeof(T));
        }
#endif
        else if (TILING_KEY_IS(80)) {
            // Unaligned length both ways: GM->UB pads the row's tail with the scalar.
            DataCopyExtParams in(1, n * sizeof(T), 0, 0, 0);
            DataCopyPadExtParams<T> pad(true, 0, 8, s);
            DataCopyPad(w, xGm, in, pad);
            DataCopy(z, w, n + 8);    // the padded row: n + 8 elements fill whole 32-byte blocks here
        }
        outZ.EnQue(z);
        inX.FreeTensor(x);
        inY.FreeTensor(y);
        z = outZ.DeQue<T>();
        if (TILING_KEY_IS(80)) {
            DataCopyPad(zGm, z, DataCopyExtParams(1, (n + 8) * sizeof(T), 0, 0, 0));
        } else if (TILING_KEY_IS(81)) {
            // Two rows of n/2 elements, the second written one element further along in GM.
            DataCopyPad(zGm, x, DataCopyExtParams(2, (n / 2) * sizeof(T), 0, sizeof(T), 0));
        } else {
            DataCopy(zGm, z, padded_);
        }
        outZ.FreeTensor(z);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inX, inY;
    TQue<QuePosition::VECOUT, 1> outZ;
    TBuf<QuePosition::VECCALC> work, wide, narrow;
    GlobalTensor<T> xGm, yGm, zGm;
    uint32_t padded_ = 0, count_ = 0;
    float scalar_ = 0.0f;
};

extern "C" __global__ __aicore__ void vec_ops(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    KernelVecOps op;
    op.Init(x, y, z, t.padded, t.count, t.scalar);
    op.Process();
}
