// Converts between float and the Ascend 950's low-precision float types one element at a time,
// with the kernel-side types: keys 1-5 encode x (floats) into z (one code a byte), keys 11-15
// decode x (one code a byte) into z (floats). 1/11 fp8_e4m3fn_t, 2/12 fp8_e5m2_t, 3/13
// fp8_e8m0_t, 4/14 fp4x2_e2m1_t (low nibble), 5/15 fp4x2_e1m2_t (low nibble), 6/16 hifloat8_t.
// Keys 21-29 convert whole registers with the register API's Cast (one register of x in, the
// destination register stored whole into z):
//   21/22/23: 64 floats -> hifloat8_t, RegLayout::ZERO (byte 4i), CAST_ROUND no-sat / CAST_ROUND
//             sat / CAST_HYBRID no-sat; 24: 256 hifloat8 bytes -> 64 floats from bytes 4i
//   25/26: 128 halves -> int4x2_t, CAST_RINT no-sat RegLayout::ZERO / CAST_FLOOR sat
//          RegLayout::ONE; 27: 256 int4x2 bytes -> 128 halves from bytes 4p (RegLayout::ZERO)
//   28: 128 bfloat16 -> fp4x2_e2m1_t, CAST_TRUNC, RegLayout::TWO; 29: fp4x2_e2m1_t bytes 4p+2
//       -> 128 bfloat16
#include "kernel_operator.h"
using namespace AscendC;

namespace {
using MicroAPI::CastTrait;
using MicroAPI::MaskMergeMode;
using MicroAPI::RegLayout;
using MicroAPI::SatMode;
constexpr CastTrait kHifRound = {RegLayout::ZERO, SatMode::NO_SAT, MaskMergeMode::ZEROING, RoundMode::CAST_ROUND};
constexpr CastTrait kHifRoundSat = {RegLayout::ZERO, SatMode::SAT, MaskMergeMode::ZEROING, RoundMode::CAST_ROUND};
constexpr CastTrait kHifHybrid = {RegLayout::ZERO, SatMode::NO_SAT, MaskMergeMode::ZEROING, RoundMode::CAST_HYBRID};
constexpr CastTrait kWiden0 = {RegLayout::ZERO, SatMode::UNKNOWN, MaskMergeMode::ZEROING, RoundMode::UNKNOWN};
constexpr CastTrait kWiden2 = {RegLayout::TWO, SatMode::UNKNOWN, MaskMergeMode::ZEROING, RoundMode::UNKNOWN};
constexpr CastTrait kInt4Rint = {RegLayout::ZERO, SatMode::NO_SAT, MaskMergeMode::ZEROING, RoundMode::CAST_RINT};
constexpr CastTrait kInt4FloorSat = {RegLayout::ONE, SatMode::SAT, MaskMergeMode::ZEROING, RoundMode::CAST_FLOOR};
constexpr CastTrait kFp4Trunc = {RegLayout::TWO, SatMode::UNKNOWN, MaskMergeMode::ZEROING, RoundMode::CAST_TRUNC};

template <class D, class S, const CastTrait& tr>
__aicore__ inline void RegCast(__ubuf__ uint8_t* src, __ubuf__ uint8_t* dst)
{
    using Byte = typename std::conditional<sizeof(D) == 1, uint8_t, D>::type;
    MicroAPI::RegTensor<S> s;
    MicroAPI::RegTensor<D> d;
    MicroAPI::LoadAlign(s, (__ubuf__ S*)src);
    MicroAPI::MaskReg m = MicroAPI::CreateMask<typename std::conditional<sizeof(S) < sizeof(D), D, S>::type>();
    MicroAPI::Cast<D, S, tr>(d, s, m);
    MicroAPI::MaskReg all = MicroAPI::CreateMask<Byte>();
    MicroAPI::StoreAlign((__ubuf__ D*)dst, d, all);
}
}  // namespace

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
    } else if (TILING_KEY_IS(6)) {
        Encode<hifloat8_t>(xf, zb, words);
    } else if (TILING_KEY_IS(16)) {
        Decode<hifloat8_t>(xb, zf, words);
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
    } else {
        __ubuf__ uint8_t* src = (__ubuf__ uint8_t*)xb.GetPhyAddr();
        __ubuf__ uint8_t* dst = (__ubuf__ uint8_t*)zb.GetPhyAddr();
        __VEC_SCOPE__
        {
            if (TILING_KEY_IS(21)) RegCast<hifloat8_t, float, kHifRound>(src, dst);
            else if (TILING_KEY_IS(22)) RegCast<hifloat8_t, float, kHifRoundSat>(src, dst);
            else if (TILING_KEY_IS(23)) RegCast<hifloat8_t, float, kHifHybrid>(src, dst);
            else if (TILING_KEY_IS(24)) RegCast<float, hifloat8_t, kWiden0>(src, dst);
            else if (TILING_KEY_IS(25)) RegCast<int4x2_t, half, kInt4Rint>(src, dst);
            else if (TILING_KEY_IS(26)) RegCast<int4x2_t, half, kInt4FloorSat>(src, dst);
            else if (TILING_KEY_IS(27)) RegCast<half, int4x2_t, kWiden0>(src, dst);
            else if (TILING_KEY_IS(28)) RegCast<fp4x2_e2m1_t, bfloat16_t, kFp4Trunc>(src, dst);
            else if (TILING_KEY_IS(29)) RegCast<bfloat16_t, fp4x2_e2m1_t, kWiden2>(src, dst);
        }
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, zl, words);
}
