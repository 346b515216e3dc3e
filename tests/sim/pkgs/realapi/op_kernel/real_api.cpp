#include "kernel_operator.h"
using namespace AscendC;

using T = DTYPE_X;
// 16-bit data takes a uint16_t gather pattern, 32-bit data a uint32_t one.
using PatternT = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;

class KernelRealApi {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t padded, uint32_t count)
    {
        // As cann-ops and the AscendC samples write it: no `;` between the value and ASSERT, also
        // in a declaration whose ASSERT checks the variable it declares (cann-ops Dawsn).
        uint32_t declared = count ASSERT(declared == count && declared != 0);   // @assert-decl
        this->count_ =
            declared ASSERT(count != 0 && "count can not be zero!");
        // and with no `;` after it at all, before a statement (cann-ops MulSigmoid)
        ASSERT(padded != 0 && "padded can not be zero!")
        padded_ = padded;
        xGm.SetGlobalBuffer((__gm__ T*)x, padded);
        yGm.SetGlobalBuffer((__gm__ T*)y, padded);
        zGm.SetGlobalBuffer((__gm__ T*)z, padded);
        pipe.InitBuffer(inX, 1, padded * sizeof(T));
        pipe.InitBuffer(inY, 1, padded * sizeof(T));
        pipe.InitBuffer(outZ, 1, padded * sizeof(T));
        pipe.InitBuffer(calc, padded * sizeof(T));
        pipe.InitBuffer(bits, padded * sizeof(uint8_t) + 32);
        pipe.InitBuffer(wide, padded * sizeof(float32_t) * 2 + 64);
        ASSERT(count_ <= padded_);   // @assert
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
        LocalTensor<T> zc = z[0];
        zc.SetSize(count_);
        if (TILING_KEY_IS(1)) { zc = x + y; }
        else if (TILING_KEY_IS(2)) { zc = x - y; }
        else if (TILING_KEY_IS(3)) { zc = x * y; }
        else if (TILING_KEY_IS(4)) { zc = x / y; }
        else if (TILING_KEY_IS(5)) {
            // Symbol compare into a bit mask, then Select: z = x < y ? x : y.
            LocalTensor<uint8_t> mask = bits.Get<uint8_t>();
            LocalTensor<T> xc = x[0];
            xc.SetSize(count_);
            mask = xc < y;
            Select(z, mask, x, y, SELMODE::VSEL_TENSOR_TENSOR_MODE, count_);
        }
        else if (TILING_KEY_IS(6)) {
            // TBuf's queue interface and TQueSync<MTE2, V>: z = x * y through a TBuf tensor.
            LocalTensor<T> t = calc.AllocTensor<T>();
            TQueSync<PIPE_MTE2, PIPE_V> sync;
            sync.SetFlag(0);
            sync.WaitFlag(0);
            calc.EnQue(t);
            t = calc.DeQue<T>();
            Mul(t, x, y, count_);
            Adds(z, t, (T)1, count_);
            calc.FreeTensor(t);
        }
        else if (TILING_KEY_IS(7)) {
            // Copy with a mask of `count` lanes per repeat: the first `count` elements of each
            // 256-byte repeat of x, repeats apart as in the source.
            const uint32_t perRepeat = 256 / sizeof(T);
            Copy(z, x, count_, padded_ / perRepeat, {1, 1, 8, 8});
        }
        else if (TILING_KEY_IS(8)) {
            // GatherMask, built-in pattern 1 (even elements), normal mode; the count kept goes to
            // the last element of z.
            uint64_t rsvdCnt = 0;
            const uint16_t repeats = padded_ * sizeof(T) / 256;
            GatherMask(z, x, (uint8_t)1, false, 0, {1, repeats, 8, 0}, rsvdCnt);
            z.SetValue(padded_ - 1, (T)(float)rsvdCnt);
            z.SetValue(padded_ - 2, (T)(float)GetGatherMaskRemainCount());
        }
        else if (TILING_KEY_IS(9)) {
            // GatherMask with a user pattern (bit i set when y[i] > 0, one repeat of the pattern
            // reused by every repeat: src1RepeatStride 0), counter mode with `count` lanes per repeat.
            LocalTensor<PatternT> pattern = bits.Get<PatternT>();
            const uint32_t perRepeat = 256 / sizeof(T);
            Duplicate(pattern, (PatternT)0, 32 / sizeof(PatternT));
            for (uint32_t i = 0; i < perRepeat; ++i) {
                if ((float)y.GetValue(i) > 0.0f) {
                    const uint32_t w = i / (8 * sizeof(PatternT));
                    pattern.SetValue(w, (PatternT)(pattern.GetValue(w) | (PatternT(1) << (i % (8 * sizeof(PatternT))))));
                }
            }
            uint64_t rsvdCnt = 0;
            GatherMask(z, x, pattern, true, count_, {1, (uint16_t)(padded_ / perRepeat), 8, 0}, rsvdCnt);
            z.SetValue(padded_ - 1, (T)(float)rsvdCnt);
        }
        else if (TILING_KEY_IS(10)) {
            // Sort32 of x's first 32 * count elements with indices 0..; then the scores gathered
            // back (pattern 1 on 32-bit lanes of the pairs) into z.
            LocalTensor<uint32_t> idx = bits.Get<uint32_t>();
            for (uint32_t i = 0; i < 32 * count_; ++i) idx.SetValue(i, i);
            LocalTensor<float32_t> pairs = wide.Get<float32_t>();
            LocalTensor<T> sorted = pairs.ReinterpretCast<T>();
            Sort32(sorted, x, idx, count_);
            LocalTensor<uint32_t> pairBits = pairs.ReinterpretCast<uint32_t>();
            LocalTensor<uint32_t> out = wide.GetWithOffset<uint32_t>(32 * count_, 32 * count_ * 8);
            uint64_t rsvdCnt = 0;
            GatherMask(out, pairBits, (uint8_t)1, false, 0, {1, (uint16_t)count_, 8, 0}, rsvdCnt);
            for (uint32_t i = 0; i < 32 * count_; ++i) {
                uint32_t v = out.GetValue(i);
                T score;
                memcpy(&score, &v, sizeof(T));
                z.SetValue(i, score);
            }
        }
        else if (TILING_KEY_IS(11)) {
            // ReduceSum into an element-aligned (not 32-byte aligned) dst: z[1] = sum(x[:count]).
            LocalTensor<T> work = calc.Get<T>();
            ReduceSum<T>(z[1], x, work, count_);
        }
        else if (TILING_KEY_IS(12)) {
            // GatherMask, 2 repeats of an all-ones pattern, past one operand (count: 1 the
            // 32-byte pattern, read 32 bytes apart; 2 src0; 3 dst).
            const uint32_t perRepeat = 256 / sizeof(T);
            LocalTensor<PatternT> pattern = bits.Get<PatternT>(32 / sizeof(PatternT));
            Duplicate(pattern, (PatternT)-1, 32 / sizeof(PatternT));
            LocalTensor<T> src = x[0];
            src.SetSize(count_ == 2 ? perRepeat + 3 : padded_);
            LocalTensor<T> dst = z[0];
            dst.SetSize(count_ == 3 ? perRepeat + 5 : padded_);
            uint64_t rsvdCnt = 0;
            GatherMask(dst, src, pattern, false, 0, {1, 2, 8, (uint8_t)(count_ == 1 ? 1 : 0)}, rsvdCnt);  // @gather-past
        }
        else if (TILING_KEY_IS(13)) {
            // GatherMask (all lanes, 2 repeats) of a source whose second 32-byte block nothing
            // wrote: only those kept elements are undefined, and they are overwritten.
            const uint32_t perRepeat = 256 / sizeof(T), perBlock = 32 / sizeof(T);
            LocalTensor<T> src = calc.Get<T>();
            Adds(src, x, (T)0, perBlock);
            Adds(src[2 * perBlock], x[2 * perBlock], (T)0, 2 * perRepeat - 2 * perBlock);
            uint64_t rsvdCnt = 0;
            GatherMask(z, src, (uint8_t)7, false, 0, {1, 2, 8, 0}, rsvdCnt);
            Duplicate(z[perBlock], (T)0, perBlock);
        }
        outZ.EnQue(z);
        z = outZ.DeQue<T>();
        DataCopy(zGm, z, padded_);
        inX.FreeTensor(x);
        inY.FreeTensor(y);
        outZ.FreeTensor(z);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inX, inY;
    TQue<QuePosition::VECOUT, 1> outZ;
    TBuf<QuePosition::VECCALC> calc, bits, wide;
    GlobalTensor<T> xGm, yGm, zGm;
    uint32_t padded_, count_;
};

extern "C" __global__ __aicore__ void real_api(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelRealApi op;
    op.Init(x, y, z, tilingData.padded, tilingData.count);
    op.Process();
}
