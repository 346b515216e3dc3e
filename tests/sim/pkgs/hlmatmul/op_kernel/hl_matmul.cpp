// c = a x b + bias through the high-level Matmul, one singleCoreM x singleCoreN share per AIV
// (GetBlockIdx), the edge shares shortened with SetTail. Keys: 1 plain; 2 no End; 3 SetOrgShape
// with a K of A shorter than singleCoreK; 4 IterateAll on an object REGIST_MATMUL_OBJ never saw;
// 5 Iterate / GetTensorC block by block into place; 6 GetTensorC before any Iterate; 8 after
// the product, a CrossCoreWaitFlag on a flag no core ever sets (a deadlock on the device); 10 and
// 11 (one share) take A from a workspace copy whose last row is never written: 10 stores C into c
// (garbage in its last row: reported), 11 into the workspace and copies only the other rows to c;
// 12 (one share) takes B in NZ format; 13 IterateAll<false> then WaitIterateAll, C's row stride
// from SetOrgShape's orgKc and the orgN or orgKb the device does not read set to 1; 14
// WaitIterateAll after a synchronous IterateAll; 16 IterateAll on a copy of the object; 17 after the
// product the CCE cross-core builtins, mode 0 (a barrier) then mode 2 (not emulated: reported);
// 18 (one share) IterateAll with C declared NZ, into c as NZ (orgM = M: the 16-column groups M rows
// apart); 19 (one share, one base block) the user-managed CO1 form, Iterate(false, l0c), then the
// kernel's own Fixpipe NZ2ND into c; 20 as 19 with enPartialSum on a CO1 nothing wrote.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "lib/matrix/matmul/matmul.h"   // the layout of CANN releases after 8.1.RC1
#include "lib/matrix/matmul/tiling.h"
// Named before any `using namespace AscendC`, as CANN declares them: at global scope.
constexpr MatmulConfig CFG_LATER = GetNormalConfig(true);   // from lib/matrix/matmul/tiling.h
static_assert(CFG_LATER.doNorm, "GetNormalConfig");
// The constant tiling (GetMMConfig, GetMatmulApiTiling) as cann-ops' MatmulApiConstant builds it; the
// registered object below is of this configuration.
constexpr MatmulShapeParams SHAPES = {128, 128, 64, 64, 64, 32};
constexpr MatmulConfig CFG_CONST = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(SHAPES);
static_assert(CFG_CONST.doNorm && CFG_CONST.singleCoreK == 64 && CFG_CONST.basicN == 64, "GetMMConfig's shapes");
using BNZ = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::NZ, half, false, LayoutMode::NONE>;
static_assert(inc == 0 && dec == 1, "bisheng's addr_cal_mode_t");
// MatmulConfig initialised positionally as cann-ops' STFT does (24 values: enUnitFlag is the 19th)
constexpr MatmulConfig CFG_24 = {true, false, false, 0, 0, 0, false, false, false, false, 0, 0, 0, 0, 0,
                                 0, 0, 0, true, false, false, false, false, false};
static_assert(CFG_24.enUnitFlag && !CFG_24.enableInit && CFG_24.enableEnd, "MatmulConfig's field order");
using namespace AscendC;

using AT = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using BT = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using CT = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BiasT = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using CNZ = MatmulType<TPosition::GM, CubeFormat::NZ, float>;
using CCO1 = MatmulType<TPosition::CO1, CubeFormat::NZ, float>;
constexpr static MatmulApiStaticTiling CFG_STATIC = GetMatmulApiTiling<AT, AT, CT, BiasT>(CFG_CONST);
static_assert(CFG_STATIC.singleCoreM == 128 && CFG_STATIC.baseK == 32 && CFG_STATIC.depthA1 == -1, "the static tiling");

extern "C" __global__ __aicore__ void hl_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace,
                                                GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const TCubeTiling& ct = t.cube;
    TPipe pipe;
    set_mask_norm();   // the CCE builtin some kernels call before anything else
    // AscendC::Conditional picks the object's type as FlashAttentionScore does
    typename AscendC::Conditional<false, Matmul<AT, BNZ, CT, BiasT>, Matmul<AT, BT, CT, BiasT, CFG_STATIC>>::type mm;
    Matmul<AT, BT, CT, BiasT> unregistered;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t.cube);
    const int32_t idx = GetBlockIdx();
    const int32_t mBlocks = (ct.M + ct.singleCoreM - 1) / ct.singleCoreM;
    const int32_t nBlocks = (ct.N + ct.singleCoreN - 1) / ct.singleCoreN;
    if (unlikely(idx >= mBlocks * nBlocks)) {   // CANN's branch hint macro
        return;
    }
    const int32_t mi = idx % mBlocks, ni = idx / mBlocks;
    const int32_t tailM = ct.M - mi * ct.singleCoreM < ct.singleCoreM ? ct.M - mi * ct.singleCoreM : ct.singleCoreM;
    const int32_t tailN = ct.N - ni * ct.singleCoreN < ct.singleCoreN ? ct.N - ni * ct.singleCoreN : ct.singleCoreN;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> biasGm, cGm;
    aGm.SetGlobalBuffer((__gm__ half*)a + mi * ct.singleCoreM * ct.Ka);
    bGm.SetGlobalBuffer((__gm__ half*)b + (t.transB ? ni * ct.singleCoreN * ct.Kb : ni * ct.singleCoreN));
    biasGm.SetGlobalBuffer((__gm__ float*)bias + ni * ct.singleCoreN);
    cGm.SetGlobalBuffer((__gm__ float*)c + mi * ct.singleCoreM * ct.N + ni * ct.singleCoreN);
    if (TILING_KEY_IS(12)) {   // B stored NZ in GM, its tiling registered through a void* (as cann-ops' Rfft1D)
        Matmul<AT, BNZ, CT, BiasT> nz;
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), nz, (void*)&t.cube);
        nz.SetTail(tailM, tailN);
        nz.SetTensorA(aGm);
        nz.SetTensorB(bGm);
        nz.SetBias(biasGm);
        nz.IterateAll(cGm);
        nz.End();
        return;
    }
    if (TILING_KEY_IS(18)) {   // C in NZ, as MatMulV3's split-K kernels store it for the vector cores
        Matmul<AT, BT, CNZ, BiasT> nz;
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), nz, &t.cube);
        nz.SetOrgShape(ct.M, ct.N, ct.Ka, ct.Kb);
        nz.SetTail(tailM, tailN);
        nz.SetTensorA(aGm);
        nz.SetTensorB(bGm, t.transB != 0);
        nz.SetBias(biasGm);
        nz.IterateAll(cGm);
        nz.End();
        return;
    }
    if (TILING_KEY_IS(19) || TILING_KEY_IS(20)) {   // CO1 managed by the kernel (MatMulV3's GM-to-L1 split-K)
        Matmul<AT, BT, CCO1, BiasT> co;
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), co, &t.cube);
        TBuf<TPosition::CO1> l0cBuf;
        pipe.InitBuffer(l0cBuf, ct.baseM * ct.baseN * sizeof(float));
        LocalTensor<float> l0c = l0cBuf.Get<float>();
        co.SetTail(tailM, tailN);
        co.SetTensorA(aGm);
        co.SetTensorB(bGm, t.transB != 0);
        co.SetBias(biasGm);
        co.Iterate(TILING_KEY_IS(20), l0c);  // @co1-partial
        SetFlag<HardEvent::M_FIX>(0);
        WaitFlag<HardEvent::M_FIX>(0);
        FixpipeParamsV220 params;
        params.nSize = tailN;
        params.mSize = tailM;
        params.srcStride = (tailM + 15) / 16 * 16;
        params.dstStride = ct.N;
        params.ndNum = 1;
        Fixpipe<float, float, CFG_ROW_MAJOR>(cGm, l0c, params);
        co.End();
        return;
    }
    if (TILING_KEY_IS(3)) {
        mm.SetOrgShape(ct.M, ct.N, ct.Ka - 16, ct.Kb);
    }
    if (TILING_KEY_IS(13)) {
        // C's row stride from orgKc; orgN, B's row stride when B is untransposed, and orgKb, when
        // it is transposed, are the only other values the device reads: the unread one is 1.
        if (t.transB) mm.SetOrgShape(ct.M, 1, ct.Ka, ct.Kb, ct.N);
        else mm.SetOrgShape(ct.M, ct.N, ct.Ka, 1, ct.N);
    }
    mm.SetTail(tailM, tailN);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm, t.transB != 0);
    mm.SetBias(biasGm);
    if (TILING_KEY_IS(4)) {
        unregistered.SetTensorA(aGm);
        unregistered.SetTensorB(bGm);
        unregistered.IterateAll(cGm);  // @unregistered
    }
    if (TILING_KEY_IS(10) || TILING_KEY_IS(11)) {
        GM_ADDR user = GetUserWorkspace(workspace);
        GlobalTensor<half> wsA;
        GlobalTensor<float> wsC;
        wsA.SetGlobalBuffer((__gm__ half*)user);
        wsC.SetGlobalBuffer((__gm__ float*)(user + ct.M * ct.Ka * 2));
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, ct.M * ct.N * 4);
        LocalTensor<half> ah = buf.Get<half>();
        DataCopy(ah, aGm, (ct.M - 1) * ct.Ka);
        SetFlag<HardEvent::MTE2_MTE3>(0);
        WaitFlag<HardEvent::MTE2_MTE3>(0);
        DataCopy(wsA, ah, (ct.M - 1) * ct.Ka);
        PipeBarrier<PIPE_ALL>();
        mm.SetTensorA(wsA);
        if (TILING_KEY_IS(10)) {
            mm.IterateAll(cGm);  // @garbage-row
        } else {
            mm.IterateAll(wsC);
            PipeBarrier<PIPE_ALL>();
            LocalTensor<float> cf = buf.Get<float>();
            DataCopy(cf, wsC, (ct.M - 1) * ct.N);
            SetFlag<HardEvent::MTE2_MTE3>(0);
            WaitFlag<HardEvent::MTE2_MTE3>(0);
            DataCopy(cGm, cf, (ct.M - 1) * ct.N);
        }
        mm.End();
        return;
    }
    if (TILING_KEY_IS(5)) {
        while (mm.Iterate()) {
            mm.GetTensorC(cGm);
        }
    } else if (TILING_KEY_IS(6)) {
        mm.GetTensorC(cGm);  // @no-iterate
    } else if (TILING_KEY_IS(13)) {   // asynchronous, as FlashAttentionScore: C is in GM after the wait
        mm.template IterateAll<false>(cGm, 0, false, true);
        mm.WaitIterateAll();
    } else if (TILING_KEY_IS(14)) {
        mm.IterateAll(cGm);
        mm.WaitIterateAll();  // @wait-sync
    } else if (TILING_KEY_IS(16)) {   // a copy of the set-up object does the work (as cann-ops' STFT)
        decltype(mm) copy;
        copy = mm;
        copy.IterateAll(cGm);
        copy.End();
    } else {
        mm.IterateAll(cGm);  // @iterate
    }
    if (!TILING_KEY_IS(2)) {
        mm.End();
    }
    if (TILING_KEY_IS(8)) {
        CrossCoreWaitFlag(5);  // @wait-unset
    }
    if (TILING_KEY_IS(17)) {   // the builtin behind CrossCoreSetFlag, in mode 2 (AIC/AIV group sync)
        ffts_cross_core_sync(PIPE_MTE3, 1 | (2 << 4) | (3 << 8));  // @ffts-mode2
    }
}
