// Converts between float and the Ascend 950's low-precision float types one element at a time,
// with the kernel-side types: keys 1-5 encode x (floats) into z (one code a byte), keys 11-15
// decode x (one code a byte) into z (floats). 1/11 fp8_e4m3fn_t, 2/12 fp8_e5m2_t, 3/13
// fp8_e8m0_t, 4/14 fp4x2_e2m1_t (low nibble), 5/15 fp4x2_e1m2_t (low nibble).
#include "kernel_operator.h"
using namespace AscendC;

template <class T>
__aicore__ inline void Encode(LocalTensor<float> x, LocalTensor<uint8_t> z, uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i) {
        z.SetValue(i, T(x.GetValue(i)).bits);
    }
}

template <class T>
__aicore__ inline void Decode(LocalTensor<uint8_t> x, LocalTensor<float> z, uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i) {
        z.SetValue(i, static_cast<float>(T::from_bits(x.GetValue(i))));
    }
}

template <class T>
__aicore__ inline void EncodeLow(LocalTensor<float> x, LocalTensor<uint8_t> z, uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i) {
        T pair;
        pair.set_low(x.GetValue(i));
        z.SetValue(i, pair.bits);
    }
}

template <class T>
__aicore__ inline void DecodeLow(LocalTensor<uint8_t> x, LocalTensor<float> z, uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i) {
        T pair;
        pair.bits = x.GetValue(i);
        z.SetValue(i, pair.low());
    }
}

extern "C" __global__ __aicore__ void low_float_cast(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const uint32_t words = t.words;
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, zBuf;
    GlobalTensor<int32_t> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ int32_t*)x, words);
    zGm.SetGlobalBuffer((__gm__ int32_t*)z, words);
    pipe.InitBuffer(xBuf, words * 4);
    pipe.InitBuffer(zBuf, words * 4);
    LocalTensor<int32_t> xl = xBuf.Get<int32_t>();
    LocalTensor<int32_t> zl = zBuf.Get<int32_t>();
    DataCopy(xl, xGm, words);
    Duplicate(zl, (int32_t)0, words);
    PipeBarrier<PIPE_ALL>();
    LocalTensor<float> xf = xl.ReinterpretCast<float>(), zf = zl.ReinterpretCast<float>();
    LocalTensor<uint8_t> xb = xl.ReinterpretCast<uint8_t>(), zb = zl.ReinterpretCast<uint8_t>();
    if (TILING_KEY_IS(1)) {
        Encode<fp8_e4m3fn_t>(xf, zb, words);
    } else if (TILING_KEY_IS(2)) {
        Encode<fp8_e5m2_t>(xf, zb, words);
    } else if (TILING_KEY_IS(3)) {
        Encode<fp8_e8m0_t>(xf, zb, words);
    } else if (TILING_KEY_IS(4)) {
        EncodeLow<fp4x2_e2m1_t>(xf, zb, words);
    } else if (TILING_KEY_IS(5)) {
        EncodeLow<fp4x2_e1m2_t>(xf, zb, words);
    } else if (TILING_KEY_IS(11)) {
        Decode<fp8_e4m3fn_t>(xb, zf, words);
    } else if (TILING_KEY_IS(12)) {
        Decode<fp8_e5m2_t>(xb, zf, words);
    } else if (TILING_KEY_IS(13)) {
        Decode<fp8_e8m0_t>(xb, zf, words);
    } else if (TILING_KEY_IS(14)) {
        DecodeLow<fp4x2_e2m1_t>(xb, zf, words);
    } else if (TILING_KEY_IS(15)) {
        DecodeLow<fp4x2_e1m2_t>(xb, zf, words);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, zl, words);
}
