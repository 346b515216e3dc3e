// The register pairs of RegTraitNumTwo as ops-nn's index and pooling kernels use them, read and
// written through `.reg[k]` reinterpreted as one-register tensors. x and z are 256 words.
//   1: x as 64 int64 in a pair; z[0:64] = (int32&)pair.reg[0] (low words), z[64:128] = reg[1]
//      (high words), z[128:192] = the low words plus 1 (an Adds on the view, as gather_nd's
//      index arithmetic).
//   2: two float registers moved into a float pair's reg[0] and reg[1] (avg_pool's result) and
//      stored through the views: z[0:128] = x[0:128] as floats, doubled.
//   3: low and high words moved into an int64 pair's halves, the pair stored whole:
//      z[0:128] = the 64 int64 (x[i] | x[64 + i] << 32).
//   4: Mula called unqualified (found by argument-dependent lookup, as ops-nn's norm kernels call
//      it), stored by an unqualified StoreAlign<...> call: z[0:64] = x[0:64] * x[64:128] +
//      x[128:192] as floats.
//   5: PairReduceElem three times over 64 floats (swiglu_group_grad's pairwise sum), the first
//      with the elements past 50 masked off: z[0:8] = sums of x's groups of eight (the last
//      groups less their masked elements), z[8:64] = 0.
//   6: integer and bitwise operations on a = x[0:64], b = x[64:128] as int32:
//      z[0:64] = Add(Mul(a, b), Min(a, b)); z[64:128] = Xor(And(a, b), Not(Or(a, b)));
//      z[128:192] = ShiftRights(ShiftLefts(Abs(a), 3), 1) + Neg(Max(Mins(a, 5), Maxs(b, -5)));
//      z[192:256] = Select(a, b) where Compare(a < b) and Compares(a >= 0) both hold, else 0.
//   7: the positive elements of x[0:128] squeezed (Squeeze<STORE_REG>) and stored by the
//      AR-offset StoreUnAlign, the same base (a cast of it) passed each time, as ops-nn's
//      sparse_slice does: z[0:k] = those elements in order, z[255] = k (AR / 4).
//   8: configurations that name a static of a template, which g++ 12 cannot take as a reference
//      template argument (dynamic_quant's `constexpr static CastTrait` members of a class template,
//      ge_glu_v2's `static constexpr ErfConfig` local of a member function template): a = x[0:64]
//      as int32; z[0:64] = floor(float(a) * 0.5) (Cast by the class's RINT trait, then by the
//      local FLOOR trait), z[64:128] = erf(float(a) / 64) as float bits (Erf with a configuration).
//   9: Gather from 8-bit UB into 16-bit registers (max_pool_v3's int8/uint8 kernels), one byte a
//      lane at index 3 * i (in bytes): z[0:64] = the int8 gathered, sign-extended, as 128 int16;
//      z[64:128] = the same bytes as uint8, zero-extended. Only x[0:96] (384 bytes) is read.
//  10: a half register whose lanes 0..63 were never written (loaded from UB only its upper half
//      of was: x[0:32] as 64 halves) viewed as RegTensor<uint32_t> for Pack, as ops-nn's int4
//      quantization does: the packed lanes 32..63 come from the written halves and are defined;
//      z[16:32] = their low halves (x's halves 0, 2, ..., 62), z[0:16] zeroed after the store.
#include "kernel_operator.h"
using namespace AscendC;

namespace Own {
using AscendC::MicroAPI::MaskReg;
using AscendC::MicroAPI::RegTensor;
__aicore__ inline void FusedStep(RegTensor<float>& acc, RegTensor<float>& a, RegTensor<float>& b, MaskReg& m)
{
    Mula(acc, a, b, m);
}
// StoreAlign with explicit template arguments and no declaration of the name in this scope, as
// ops-nn's softmax_cross_entropy_with_logits calls it (bisheng takes it as C++20's lookup)
__aicore__ inline void StoreFloats(__ubuf__ float* dst, RegTensor<float>& r, MaskReg& m)
{
    StoreAlign<float, AscendC::MicroAPI::StoreDist::DIST_NORM_B32>(dst, r, m);
}
template <typename T>
class Configured {
public:
    constexpr static MicroAPI::CastTrait toFloat = {MicroAPI::RegLayout::ZERO, MicroAPI::SatMode::UNKNOWN,
                                                     MicroAPI::MaskMergeMode::ZEROING, RoundMode::CAST_RINT};
    __aicore__ inline void Halve(__ubuf__ T* dst, __ubuf__ T* src)
    {
        constexpr static MicroAPI::CastTrait toInt = {MicroAPI::RegLayout::ZERO, MicroAPI::SatMode::NO_SAT,
                                                       MicroAPI::MaskMergeMode::ZEROING, RoundMode::CAST_FLOOR};
        MicroAPI::RegTensor<T> a, back;
        MicroAPI::RegTensor<float> f;
        MicroAPI::MaskReg all = MicroAPI::CreateMask<float>();
        MicroAPI::LoadAlign(a, src);
        MicroAPI::Cast<float, T, toFloat>(f, a, all);
        MicroAPI::Muls(f, f, 0.5f, all);
        MicroAPI::Cast<T, float, toInt>(back, f, all);
        MicroAPI::StoreAlign(dst, back, all);
    }
    template <typename U>
    __aicore__ inline void Erfs(const LocalTensor<float>& dst, const LocalTensor<float>& src, U count)
    {
        static constexpr ErfConfig config = {ErfAlgo::SUBSECTION_POLYNOMIAL_APPROXIMATION};
        AscendC::Erf<float, false, config>(dst, src, count);
    }
};
}  // namespace Own

extern "C" __global__ __aicore__ void reg_cases(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, zb, hb;
    pipe.InitBuffer(xb, t.words * sizeof(int32_t));
    pipe.InitBuffer(zb, t.words * sizeof(int32_t));
    pipe.InitBuffer(hb, 256);
    LocalTensor<half> hl = hb.Get<half>();
    GlobalTensor<int32_t> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ int32_t*)x, t.words);
    zGm.SetGlobalBuffer((__gm__ int32_t*)z, t.words);
    LocalTensor<int32_t> xl = xb.Get<int32_t>();
    LocalTensor<int32_t> zl = zb.Get<int32_t>();
    DataCopy(xl, xGm, t.words);
    Duplicate(zl, 0, t.words);
    PipeBarrier<PIPE_ALL>();
    if (TILING_KEY_IS(10)) {
        Muls(hl[64], xl.ReinterpretCast<half>(), half(1.0f), 64);
        PipeBarrier<PIPE_ALL>();
    }
    __ubuf__ int32_t* src = (__ubuf__ int32_t*)xl.GetPhyAddr();
    __ubuf__ int32_t* dst = (__ubuf__ int32_t*)zl.GetPhyAddr();
    __VEC_SCOPE__
    {
        MicroAPI::MaskReg all = MicroAPI::CreateMask<int32_t>();
        if (TILING_KEY_IS(1)) {
            MicroAPI::RegTensor<int64_t, MicroAPI::RegTraitNumTwo> pair;
            MicroAPI::LoadAlign(pair, (__ubuf__ int64_t*)src);
            MicroAPI::RegTensor<int32_t> lo, hi, next;
            lo = (MicroAPI::RegTensor<int32_t>&)pair.reg[0];
            hi = (MicroAPI::RegTensor<int32_t>&)pair.reg[1];
            MicroAPI::Adds(next, (MicroAPI::RegTensor<int32_t>&)pair.reg[0], 1, all);
            MicroAPI::StoreAlign(dst, lo, all);
            MicroAPI::StoreAlign(dst + 64, hi, all);
            MicroAPI::StoreAlign(dst + 128, next, all);
        } else if (TILING_KEY_IS(2)) {
            MicroAPI::RegTensor<float, MicroAPI::RegTraitNumTwo> res;
            MicroAPI::RegTensor<float> a, b;
            MicroAPI::MaskReg allf = MicroAPI::CreateMask<float>();
            MicroAPI::LoadAlign(a, (__ubuf__ float*)src);
            MicroAPI::LoadAlign(b, (__ubuf__ float*)src + 64);
            MicroAPI::Muls(a, a, 2.0f, allf);
            MicroAPI::Muls(b, b, 2.0f, allf);
            MicroAPI::Move((MicroAPI::RegTensor<float>&)res.reg[0], a);
            MicroAPI::Move((MicroAPI::RegTensor<float>&)res.reg[1], b);
            MicroAPI::StoreAlign((__ubuf__ float*)dst, (MicroAPI::RegTensor<float>&)res.reg[0], allf);
            MicroAPI::StoreAlign((__ubuf__ float*)dst + 64, (MicroAPI::RegTensor<float>&)res.reg[1], allf);
        } else if (TILING_KEY_IS(3)) {
            MicroAPI::RegTensor<int64_t, MicroAPI::RegTraitNumTwo> pair;
            MicroAPI::RegTensor<uint32_t> lo, hi;
            MicroAPI::LoadAlign(lo, (__ubuf__ uint32_t*)src);
            MicroAPI::LoadAlign(hi, (__ubuf__ uint32_t*)src + 64);
            MicroAPI::Move((MicroAPI::RegTensor<uint32_t>&)pair.reg[0], lo);
            MicroAPI::Move((MicroAPI::RegTensor<uint32_t>&)pair.reg[1], hi);
            MicroAPI::MaskReg all64 = MicroAPI::CreateMask<int64_t, MicroAPI::MaskPattern::ALL, MicroAPI::RegTraitNumTwo>();
            MicroAPI::StoreAlign((__ubuf__ int64_t*)dst, pair, all64);
        } else if (TILING_KEY_IS(4)) {
            MicroAPI::RegTensor<float> a, b, acc;
            MicroAPI::MaskReg allf = MicroAPI::CreateMask<float>();
            MicroAPI::LoadAlign(a, (__ubuf__ float*)src);
            MicroAPI::LoadAlign(b, (__ubuf__ float*)src + 64);
            MicroAPI::LoadAlign(acc, (__ubuf__ float*)src + 128);
            Own::FusedStep(acc, a, b, allf);
            Own::StoreFloats((__ubuf__ float*)dst, acc, allf);
        } else if (TILING_KEY_IS(5)) {
            MicroAPI::RegTensor<float> a, r32, r16, r8;
            uint32_t first = 50;
            MicroAPI::MaskReg m50 = MicroAPI::UpdateMask<float>(first);
            MicroAPI::MaskReg allf = MicroAPI::CreateMask<float>();
            MicroAPI::LoadAlign(a, (__ubuf__ float*)src);
            MicroAPI::PairReduceElem<MicroAPI::PairReduce::SUM>(r32, a, m50);
            MicroAPI::PairReduceElem<MicroAPI::PairReduce::SUM>(r16, r32, allf);
            MicroAPI::PairReduceElem<MicroAPI::PairReduce::SUM>(r8, r16, allf);
            MicroAPI::StoreAlign((__ubuf__ float*)dst, r8, allf);
        } else if (TILING_KEY_IS(6)) {
            MicroAPI::RegTensor<int32_t> a, b, p, q, r, zero;
            MicroAPI::LoadAlign(a, src);
            MicroAPI::LoadAlign(b, src + 64);
            MicroAPI::Mul(p, a, b, all);
            MicroAPI::Min(q, a, b, all);
            MicroAPI::Add(r, p, q, all);
            MicroAPI::StoreAlign(dst, r, all);
            MicroAPI::And(p, a, b, all);
            MicroAPI::Or(q, a, b, all);
            MicroAPI::Not(q, q, all);
            MicroAPI::Xor(r, p, q, all);
            MicroAPI::StoreAlign(dst + 64, r, all);
            MicroAPI::Abs(p, a, all);
            MicroAPI::ShiftLefts(p, p, (int16_t)3, all);
            MicroAPI::ShiftRights(p, p, (int16_t)1, all);
            MicroAPI::Mins(q, a, 5, all);
            MicroAPI::Maxs(r, b, -5, all);
            MicroAPI::Max(q, q, r, all);
            MicroAPI::Neg(q, q, all);
            MicroAPI::Add(r, p, q, all);
            MicroAPI::StoreAlign(dst + 128, r, all);
            MicroAPI::MaskReg lt, nonneg, both;
            MicroAPI::Compare<int32_t, CMPMODE::LT>(lt, a, b, all);
            MicroAPI::Compares<int32_t, CMPMODE::GE>(nonneg, a, 0, all);
            MicroAPI::MaskAnd(both, lt, nonneg, all);
            MicroAPI::Duplicate(zero, 0);
            MicroAPI::Select(r, a, zero, both);
            MicroAPI::StoreAlign(dst + 192, r, all);
        } else if (TILING_KEY_IS(7)) {
            MicroAPI::ClearSpr<SpecialPurposeReg::AR>();
            MicroAPI::UnalignRegForStore ureg;
            for (uint16_t i = 0; i < 2; ++i) {
                MicroAPI::RegTensor<int32_t> a, kept;
                MicroAPI::MaskReg pos;
                MicroAPI::LoadAlign(a, src + i * 64);
                MicroAPI::Compares<int32_t, CMPMODE::GT>(pos, a, 0, all);
                MicroAPI::Squeeze<int32_t, MicroAPI::GatherMaskMode::STORE_REG>(kept, a, pos);
                MicroAPI::StoreUnAlign<int32_t, MicroAPI::PostLiteral::POST_MODE_UPDATE>((__ubuf__ int32_t*)dst, kept, ureg);
            }
            MicroAPI::StoreUnAlignPost(dst, ureg);
        } else if (TILING_KEY_IS(8)) {
            Own::Configured<int32_t>().Halve(dst, src);
        } else if (TILING_KEY_IS(10)) {
            MicroAPI::RegTensor<half> h;
            MicroAPI::RegTensor<uint16_t> packed;
            MicroAPI::MaskReg all16 = MicroAPI::CreateMask<uint16_t>();
            MicroAPI::LoadAlign(h, (__ubuf__ half*)hl.GetPhyAddr());
            MicroAPI::Pack(packed, (MicroAPI::RegTensor<uint32_t>&)h);
            MicroAPI::StoreAlign((__ubuf__ uint16_t*)dst, packed, all16);
        } else if (TILING_KEY_IS(9)) {
            MicroAPI::RegTensor<uint16_t> idx;
            MicroAPI::RegTensor<int16_t> s16;
            MicroAPI::RegTensor<uint16_t> u16;
            MicroAPI::MaskReg all16 = MicroAPI::CreateMask<uint16_t>();
            MicroAPI::Arange((MicroAPI::RegTensor<int16_t>&)idx, 0);
            MicroAPI::Muls(idx, idx, (uint16_t)3, all16);
            MicroAPI::Gather(s16, (__ubuf__ int8_t*)src, idx, all16);
            MicroAPI::Gather(u16, (__ubuf__ uint8_t*)src, idx, all16);
            MicroAPI::StoreAlign((__ubuf__ int16_t*)dst, s16, all16);
            MicroAPI::StoreAlign((__ubuf__ uint16_t*)dst + 128, u16, all16);
        }
    }
    PipeBarrier<PIPE_ALL>();
    if (TILING_KEY_IS(7)) {
        zl.SetValue(255, static_cast<int32_t>(MicroAPI::GetSpr<SpecialPurposeReg::AR>() / sizeof(int32_t)));
        PipeBarrier<PIPE_ALL>();
    }
    if (TILING_KEY_IS(10)) {
        Duplicate(zl, 0, 16);
        Duplicate(zl[32], 0, t.words - 32);
        PipeBarrier<PIPE_ALL>();
    }
    if (TILING_KEY_IS(8)) {
        LocalTensor<float> xf = xl.ReinterpretCast<float>();
        LocalTensor<float> zf = zl.ReinterpretCast<float>();
        Cast(xf, xl, RoundMode::CAST_NONE, 64);
        Muls(xf, xf, 1.0f / 64, 64);
        Own::Configured<int32_t>().Erfs(zf[64], xf, 64u);
        PipeBarrier<PIPE_ALL>();
    }
    DataCopy(zGm, zl, t.words);
}
