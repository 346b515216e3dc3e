#include "kernel_operator.h"
using namespace AscendC;

using T = DTYPE_X;

// The way cann-ops' foreach kernels pass an API: as a function pointer template argument.
template <typename U>
using UnaryOp = void (const LocalTensor<U>&, const LocalTensor<U>&, const uint32_t);
template <UnaryOp<T>* op>
__aicore__ inline void ApplyThroughPointer(const LocalTensor<T>& z, const LocalTensor<T>& x, uint32_t n)
{
    op(z, x, n);
}

constexpr CumSumConfig firstAxisCumSum = {false, false, true};

class KernelHlMath {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t padded, uint32_t count, int32_t tmpBytes,
                                float scalar)
    {
        padded_ = padded;
        count_ = count;
        tmpBytes_ = tmpBytes;
        scalar_ = scalar;
        xGm.SetGlobalBuffer((__gm__ T*)x, padded);
        yGm.SetGlobalBuffer((__gm__ T*)y, padded);
        zGm.SetGlobalBuffer((__gm__ T*)z, padded);
        pipe.InitBuffer(inX, 1, padded * sizeof(T));
        pipe.InitBuffer(inY, 1, padded * sizeof(T));
        pipe.InitBuffer(outZ, 1, padded * sizeof(T));
        if (tmpBytes > 0) pipe.InitBuffer(tmpBuf, tmpBytes);
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
        Compute(z, x, y);
        outZ.EnQue(z);
        z = outZ.DeQue<T>();
        DataCopy(zGm, z, padded_);
        outZ.FreeTensor(z);
        inX.FreeTensor(x);
        inY.FreeTensor(y);
    }

private:
    __aicore__ inline void Compute(LocalTensor<T>& z, LocalTensor<T>& x, LocalTensor<T>& y)
    {
        const uint32_t n = count_;
        LocalTensor<uint8_t> tb;
        if (tmpBytes_ > 0) tb = tmpBuf.Get<uint8_t>(tmpBytes_);
        const bool shared = tmpBytes_ >= 0;
#define UNARY(KEY, NAME)                         \
        if (TILING_KEY_IS(KEY)) {                \
            if (shared) NAME<T, false>(z, x, tb, n); \
            else NAME(z, x, n);                  \
            return;                              \
        }
        UNARY(1, Sin) UNARY(2, Cos) UNARY(3, Tan) UNARY(4, Asin) UNARY(5, Acos) UNARY(6, Atan)
        UNARY(7, Sinh) UNARY(8, Cosh) UNARY(9, Tanh) UNARY(10, Asinh) UNARY(11, Acosh) UNARY(12, Atanh)
        UNARY(13, Erf) UNARY(14, Erfc) UNARY(15, Digamma) UNARY(16, Lgamma) UNARY(17, Floor) UNARY(18, Ceil)
        UNARY(19, Round) UNARY(20, Trunc) UNARY(21, Frac) UNARY(22, Sign) UNARY(23, Log2) UNARY(24, Sigmoid)
#undef UNARY
        if (TILING_KEY_IS(25)) { Log(z, x, n); return; }
        if (TILING_KEY_IS(26)) { Log10(z, x, n); return; }
        const T s = (T)scalar_;
        if (TILING_KEY_IS(50)) { if (shared) Power<T, false>(z, x, y, tb, n); else Power(z, x, y, n); return; }
        if (TILING_KEY_IS(51)) { if (shared) Power<T, false>(z, x, s, tb, n); else Power<T, false>(z, x, s, n); return; }
        if (TILING_KEY_IS(52)) { Power<T, false>(z, s, x, n); return; }
        if (TILING_KEY_IS(53)) { ClampMax<T, false>(z, x, tb, s, n); return; }
        if (TILING_KEY_IS(54)) { ClampMin<T, false>(z, x, s, n); return; }
        if (TILING_KEY_IS(55)) { Fmod<T, false>(z, x, y, tb, n); return; }
        if (TILING_KEY_IS(56)) { Exp<T, 10, false>(z, x, tb, n); return; }
        if (TILING_KEY_IS(57)) { Adds(z, y, (T)0, n); Axpy<T, T, false>(z, x, s, tb, n); return; }
        if (TILING_KEY_IS(60)) { Silu(z, x, n); return; }
        if (TILING_KEY_IS(61)) { Swish(z, x, n, s); return; }
        if (TILING_KEY_IS(62)) { if (shared) Gelu(z, x, tb, n); else Gelu(z, x, n); return; }
        if (TILING_KEY_IS(63)) { FasterGelu(z, x, tb, n); return; }
        if (TILING_KEY_IS(64)) { FasterGeluV2(z, x, n); return; }
        if (TILING_KEY_IS(65)) { if (shared) GeGLU<T, false>(z, x, y, tb, n); else GeGLU<T, false>(z, x, y, n); return; }
        if (TILING_KEY_IS(66)) { ReGlu<T, false>(z, x, y, tb, n); return; }
        if (TILING_KEY_IS(67)) { if (shared) SwiGLU<T, false>(z, x, y, scalar_, tb, n); else SwiGLU<T, false>(z, x, y, scalar_, n); return; }
        // Rows of `n` valid elements, `inner` apart (n rounded up to 32 bytes), four of them.
        const uint32_t inner = (n * sizeof(T) + 31) / 32 * 32 / sizeof(T);
        if (TILING_KEY_IS(70)) { SumParams p{4, inner, n}; Sum(z, x, tb, p); return; }
        if (TILING_KEY_IS(71)) { MeanParams p{4, inner, n}; if (shared) Mean(z, x, tb, p); else Mean(z, x, p); return; }
        if (TILING_KEY_IS(72)) {
            if constexpr (sizeof(T) == 2) { MeanParams p{4, inner, n}; Mean<T, float>(z, x, tb, p); }
            return;
        }
        if (TILING_KEY_IS(73) || TILING_KEY_IS(74)) {
            // The mask: y's bytes, rows twice as wide as the data rows.
            LocalTensor<uint8_t> mask = y.template ReinterpretCast<uint8_t>();
            SelectWithBytesMaskShapeInfo info;
            info.firstAxis = 4;
            info.srcLastAxis = inner;
            info.maskLastAxis = (2 * inner + 31) / 32 * 32;
            if (TILING_KEY_IS(73)) SelectWithBytesMask(z, x, s, mask, tb, info);
            else SelectWithBytesMask<T, uint8_t, false>(z, s, x, mask, tb, info);
            return;
        }
        if (TILING_KEY_IS(80)) {
            const uint32_t dstShape[2] = {4, n}, srcShape[2] = {4, 1};
            Broadcast<T, 2, 1>(z, x, dstShape, srcShape);
            return;
        }
        if (TILING_KEY_IS(81)) {
            const uint32_t dstShape[2] = {4, n}, srcShape[2] = {1, n};
            BroadCast<T, 2, 0>(z, x, dstShape, srcShape, tb);
            return;
        }
        if (TILING_KEY_IS(82)) {
            const uint32_t dstShape[1] = {n}, srcShape[1] = {1};
            Broadcast<T, 1, 0>(z, x, dstShape, srcShape);
            return;
        }
        if (TILING_KEY_IS(83)) {
            const uint32_t dstShape[2] = {4, n}, srcShape[2] = {2, 1};
            Broadcast<T, 2, 1>(z, x, dstShape, srcShape);  // @broadcast-shape
            return;
        }
        if (TILING_KEY_IS(84)) {
            CumSumInfo info{4, inner};
            CumSum<T>(z, z[4 * inner], x, tb, info);   // the last row lands after the result
            return;
        }
        if (TILING_KEY_IS(85)) {
            CumSumInfo info{4, inner};
            CumSum<T, firstAxisCumSum>(z, z[4 * inner], x, info);
            return;
        }
        // Whole-tensor forms on sub-views (temporaries bind to the rvalue overload).
        if (TILING_KEY_IS(30)) { Tanh(z[0], x[0]); return; }
        if (TILING_KEY_IS(31)) { Tanh<T, false>(z, x, tb); return; }
        if (TILING_KEY_IS(40)) { ApplyThroughPointer<Sin<T, false>>(z, x, n); return; }
        if (TILING_KEY_IS(41)) { ApplyThroughPointer<Tanh<T, false>>(z, x, n); return; }
        // Diagnostics: each on its own line.
        if (TILING_KEY_IS(90)) { Sin<T, false>(z, x, tb, n); return; }  // @sin-tmp
        if (TILING_KEY_IS(91)) { Erf(z, x, n); return; }  // @erf-stack
        if (TILING_KEY_IS(92)) { Atan<T, false>(z, x, tb, n); return; }  // @atan-count
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inX, inY;
    TQue<QuePosition::VECOUT, 1> outZ;
    TBuf<TPosition::VECCALC> tmpBuf;
    GlobalTensor<T> xGm, yGm, zGm;
    uint32_t padded_ = 0, count_ = 0;
    int32_t tmpBytes_ = 0;
    float scalar_ = 0;
};

extern "C" __global__ __aicore__ void hl_math(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    KernelHlMath op;
    op.Init(x, y, z, t.padded, t.count, t.tmpBytes, t.scalar);
    op.Process();
}
