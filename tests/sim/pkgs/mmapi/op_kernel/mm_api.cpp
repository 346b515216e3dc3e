// The Matmul API's breadth on one core (see op_host/mm_api.cpp). Keys: 1 IterateBatch over the
// batches, with the setters that change no value (SetHF32(false), SetSubBlockIdx,
// SetLocalWorkspace, SetSelfDefineData, SetUserDefInfo); 2 IterateBatch<false> then
// WaitIterateBatch; 3 IterateNBatch into the workspace, the first round's C through GetBatchC (GM),
// the others through GetBatchTensorC into UB; 4 Iterate<false>, AsyncGetTensorC, WaitGetTensorC,
// each block placed by GetOffsetC<false>; 5 / 6 int8 w as B, anti-quantised with one offset and
// scale (v[0], v[1]) / one per column (v[0:N], v[N:2N]); 7 A and B from UB through
// SetTensorAWithCopy / SetTensorBWithCopy; 8 / 9 the bias set, then DisableBias / ClearBias;
// 10 the two column halves through SetSingleShape; 11 the tiling given by InitKfcClient;
// misuse: 12 IterateNBatch without SetWorkspace; 13 one GetBatchTensorC too many; 14
// WaitIterateBatch after a synchronous IterateBatch; 15 AsyncGetTensorC's block read by the vector
// unit before WaitGetTensorC. Inputs already in NZ: 16 A copied ND -> NZ into L1 (a TSCM A
// declared with the GM format, ND, as MatMulV3 declares its L1 A); 17 A in GM in NZ (the test
// passes it so laid out); 18 B copied into L1; 19 an L1 A smaller than the product reads;
// 20 the pattern ReduceSum as ops-nn's BatchMatMulV3 vector path calls it on Atlas A2 (bias as
// 6 rows of 5 floats, the rows 8 floats apart); 21 Iterate<false> into the workspace, then every
// base block through GetTensorC() (each copied to c in the order handed out); 22 one too many;
// 23 a key declared KERNEL_TYPE_AIC_ONLY (a cube body, as MatMulV3's): its product runs only if
// the block is the AIC (ASCEND_IS_AIV returns); 24 the same test on a mixed key: the vector body;
// 29 C declared in the UB (VECIN) and written to GM by IterateAll; 30 an int8 C from the half
// product through SetQuantScalar (QF322B8_PRE); 25 MatMulV3's pattern: per column half SetTensorB, one Iterate, GetTensorC to GM (a new input
// restarts Iterate); 26 an AIC-only key whose Matmul is never ended (no cube server to release).
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

using AT = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>;
using BT = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>;
using WT = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
using CT = MatmulType<TPosition::GM, CubeFormat::ND, float, false, LayoutMode::NORMAL>;
using BiasT = MatmulType<TPosition::GM, CubeFormat::ND, float>;

template <class MM>
__aicore__ inline void AntiQuant(MM& mm, GlobalTensor<half>& aGm, GM_ADDR w, GM_ADDR v, GlobalTensor<float>& cGm,
                                 const TCubeTiling& ct, TPipe& pipe)
{
    GlobalTensor<int8_t> wGm;
    GlobalTensor<half> vGm;
    wGm.SetGlobalBuffer((__gm__ int8_t*)w);
    vGm.SetGlobalBuffer((__gm__ half*)v);
    mm.SetTensorA(aGm);
    mm.SetTensorB(wGm);
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, ct.N * 4);
    if (TILING_KEY_IS(5)) {
        mm.SetAntiQuantScalar(vGm.GetValue(0), vGm.GetValue(1));
    } else {
        LocalTensor<half> offScale = buf.Get<half>();
        DataCopy(offScale, vGm, ct.N * 2);
        PipeBarrier<PIPE_ALL>();
        mm.SetAntiQuantVector(offScale, offScale[ct.N]);
    }
    mm.IterateAll(cGm);
    mm.End();
}

using AL1 = MatmulType<TPosition::TSCM, CubeFormat::ND, half>;
using BL1 = MatmulType<TPosition::TSCM, CubeFormat::NZ, half>;
using ANZ = MatmulType<TPosition::GM, CubeFormat::NZ, half>;

// rows x cols of src (ND, cols a row) into L1 as NZ, its height rows rounded up to 16
__aicore__ inline void CopyToL1Nz(const LocalTensor<half>& dst, const GlobalTensor<half>& src, uint32_t rows, uint32_t cols)
{
    Nd2NzParams p;
    p.ndNum = 1;
    p.nValue = rows;
    p.dValue = cols;
    p.srcNdMatrixStride = 0;
    p.srcDValue = cols;
    p.dstNzC0Stride = (rows + 15) / 16 * 16;
    p.dstNzNStride = 1;
    p.dstNzMatrixStride = 0;
    DataCopy(dst, src, p);
}

template <class A_TYPE, class B_TYPE>
__aicore__ inline void InputsInNz(TPipe& pipe, const TCubeTiling& tiling, GlobalTensor<half>& aGm,
                                  GlobalTensor<half>& bGm, GlobalTensor<float>& cGm)
{
    Matmul<A_TYPE, B_TYPE, CT, BiasT> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    const uint32_t m16 = (tiling.M + 15) / 16 * 16, k16 = (tiling.Ka + 15) / 16 * 16;
    TQue<TPosition::A1, 1> l1;
    pipe.InitBuffer(l1, 1, TILING_KEY_IS(19) ? 512 : (TILING_KEY_IS(18) ? k16 * tiling.N : m16 * tiling.Ka) * 2);
    LocalTensor<half> t = l1.AllocTensor<half>();
    if (TILING_KEY_IS(16)) {
        CopyToL1Nz(t, aGm, tiling.M, tiling.Ka);
    } else if (TILING_KEY_IS(18)) {
        CopyToL1Nz(t, bGm, tiling.Kb, tiling.N);
    }
    l1.EnQue(t);
    t = l1.DeQue<half>();
    if constexpr (A_TYPE::pos == TPosition::TSCM) {
        mm.SetTensorA(t);
    } else {
        mm.SetTensorA(aGm);
    }
    if constexpr (B_TYPE::pos == TPosition::TSCM) {
        mm.SetTensorB(t);
    } else {
        mm.SetTensorB(bGm);
    }
    mm.IterateAll(cGm);  // @nz-product
    mm.End();
    l1.FreeTensor(t);
}

extern "C" __global__ __aicore__ void mm_api(GM_ADDR a, GM_ADDR b, GM_ADDR w, GM_ADDR v, GM_ADDR bias, GM_ADDR c,
                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    KERNEL_TASK_TYPE(23, KERNEL_TYPE_AIC_ONLY);
    KERNEL_TASK_TYPE(26, KERNEL_TYPE_AIC_ONLY);
    KERNEL_TASK_TYPE(27, KERNEL_TYPE_AIC_ONLY);
    if (TILING_KEY_IS(27)) {   // the cube body of each of 4 AI cores: its index, sub-block 0
        GlobalTensor<float> out;
        out.SetGlobalBuffer((__gm__ float*)c);
        out.SetValue(GetBlockIdx(), static_cast<float>(GetBlockIdx() + 100 * GetSubBlockIdx()));
        return;
    }
    if (GetBlockIdx() != 0) {
        return;
    }
    const TCubeTiling& ct = t.cube;
    const uint32_t batch = static_cast<uint32_t>(t.batch);
    TPipe pipe;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> biasGm, cGm;
    aGm.SetGlobalBuffer((__gm__ half*)a);
    bGm.SetGlobalBuffer((__gm__ half*)b);
    biasGm.SetGlobalBuffer((__gm__ float*)bias);
    cGm.SetGlobalBuffer((__gm__ float*)c);
    GM_ADDR user = GetUserWorkspace(workspace);
    if (TILING_KEY_IS(5) || TILING_KEY_IS(6)) {
        Matmul<AT, WT, CT, BiasT> q;
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), q, &t.cube);
        AntiQuant(q, aGm, w, v, cGm, ct, pipe);
        return;
    }
    if (TILING_KEY_IS(29)) {   // C declared in the UB (VECIN), IterateAll into GM, as ops-nn's qbmm v3 bf16 kernels
        Matmul<AT, BT, MatmulType<TPosition::VECIN, CubeFormat::ND, float>, BiasT> u;
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), u, &t.cube);
        u.SetTensorA(aGm);
        u.SetTensorB(bGm);
        u.IterateAll(cGm);
        u.End();
        return;
    }
    if (TILING_KEY_IS(30)) {   // half A and B to an int8 C through SetQuantScalar (QF322B8_PRE: scale 0.25, offset 3)
        Matmul<AT, BT, MatmulType<TPosition::GM, CubeFormat::ND, int8_t>, BiasT> q8;
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), q8, &t.cube);
        GlobalTensor<int8_t> c8;
        c8.SetGlobalBuffer((__gm__ int8_t*)c);
        const float scale = 0.25f;
        uint32_t bits;
        memcpy(&bits, &scale, sizeof bits);
        q8.SetTensorA(aGm);
        q8.SetTensorB(bGm);
        q8.SetQuantScalar(uint64_t(bits) | (uint64_t(3) << 37) | (uint64_t(1) << 46));
        q8.IterateAll(c8);
        q8.End();
        return;
    }
    if (TILING_KEY_IS(20)) {
        TBuf<TPosition::VECCALC> rb;
        pipe.InitBuffer(rb, 64 * 4);
        LocalTensor<float> src = rb.Get<float>(), dst = src[48];
        DataCopy(src, biasGm, 48);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        const uint32_t shape[2] = {6, 5};
        ReduceSum<float, Pattern::Reduce::AR>(dst, src, shape, true);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopyPad(cGm, dst, {1, 6 * sizeof(float), 0, 0, 0});
        return;
    }
    if (TILING_KEY_IS(16) || TILING_KEY_IS(19)) {
        InputsInNz<AL1, BT>(pipe, t.cube, aGm, bGm, cGm);
        return;
    } else if (TILING_KEY_IS(17)) {
        InputsInNz<ANZ, BT>(pipe, t.cube, aGm, bGm, cGm);
        return;
    } else if (TILING_KEY_IS(18)) {
        InputsInNz<AT, BL1>(pipe, t.cube, aGm, bGm, cGm);
        return;
    }
    Matmul<AT, BT, CT, BiasT> mm;
    if (TILING_KEY_IS(11)) {
        KfcCommClient client;
        InitKfcClient(mm, &t.cube, &pipe, &client, 0, workspace);
    } else {
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t.cube);
    }
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * 1024);
    if (TILING_KEY_IS(7)) {
        LocalTensor<half> ab = buf.Get<half>();
        DataCopy(ab, aGm, ct.M * ct.Ka);
        DataCopy(ab[ct.M * ct.Ka], bGm, ct.Kb * ct.N);
        SetFlag<HardEvent::MTE2_MTE3>(0);
        WaitFlag<HardEvent::MTE2_MTE3>(0);
        GlobalTensor<half> wsA, wsB;
        wsA.SetGlobalBuffer((__gm__ half*)user);
        wsB.SetGlobalBuffer((__gm__ half*)(user + ct.M * ct.Ka * 2));
        mm.SetTensorAWithCopy(wsA, ab);
        mm.SetTensorBWithCopy(wsB, ab[ct.M * ct.Ka]);
        PipeBarrier<PIPE_ALL>();
        mm.IterateAll(cGm);
        mm.End();
        return;
    }
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    if (TILING_KEY_IS(1) || TILING_KEY_IS(2) || TILING_KEY_IS(14) || TILING_KEY_IS(28)) {
        mm.SetHF32(false);
        mm.SetSubBlockIdx(0);
        mm.SetLocalWorkspace(buf.Get<uint8_t>());
        mm.SetSelfDefineData(reinterpret_cast<uint64_t>(user));
        mm.SetUserDefInfo(reinterpret_cast<uint64_t>(tiling));
        mm.SetBatchNum(batch, batch);
        if (TILING_KEY_IS(2)) {
            mm.template IterateBatch<false>(cGm, batch, batch, false);
            mm.WaitIterateBatch();
        } else if (TILING_KEY_IS(28)) {   // current asc-devkit's form: the batch counts SetBatchNum's
            mm.IterateBatch(cGm, false, 0, false);
        } else {
            mm.IterateBatch(cGm, batch, batch, false);
        }
        if (TILING_KEY_IS(14)) {
            mm.WaitIterateBatch();  // @wait-batch
        }
    } else if (TILING_KEY_IS(3) || TILING_KEY_IS(12) || TILING_KEY_IS(13)) {
        if (!TILING_KEY_IS(12)) {
            mm.SetWorkspace((__gm__ const float*)user, static_cast<int>(batch * ct.M * ct.N * 4));
        }
        mm.SetBatchNum(1, 1);
        mm.IterateNBatch(batch, 1, 1, true);  // @nbatch
        const uint32_t mn = ct.M * ct.N;
        LocalTensor<float> cUb = buf.Get<float>();
        for (uint32_t i = 0; i < batch; ++i) {
            if (i == 0) {
                GlobalTensor<float> first = mm.GetBatchC(1, 1, true);
                DataCopy(cUb, first, mn);
            } else {
                mm.GetBatchTensorC(cUb, 1, 1, true);
            }
            SetFlag<HardEvent::MTE2_MTE3>(0);
            WaitFlag<HardEvent::MTE2_MTE3>(0);
            DataCopy(cGm[i * mn], cUb, mn);
            PipeBarrier<PIPE_ALL>();
        }
        if (TILING_KEY_IS(13)) {
            mm.GetBatchTensorC(cUb, 1, 1, true);  // @one-too-many
        }
    } else if (TILING_KEY_IS(4) || TILING_KEY_IS(15)) {
        LocalTensor<float> block = buf.Get<float>();
        while (mm.template Iterate<false>()) {
            mm.AsyncGetTensorC(block);
            if (TILING_KEY_IS(15)) {
                Adds(block, block, 0.0f, ct.baseM * ct.baseN);  // @early-read
            }
            mm.WaitGetTensorC();
            Adds(block, block, 0.0f, ct.baseM * ct.baseN);   // the vector unit may read the block now
            const MatrixOffset at = mm.GetOffsetC<false>();
            SetFlag<HardEvent::V_MTE3>(0);
            WaitFlag<HardEvent::V_MTE3>(0);
            for (int32_t r = 0; r < at.height; ++r) {
                DataCopy(cGm[at.offset + r * ct.N], block[r * ct.baseN], at.width);
            }
            PipeBarrier<PIPE_ALL>();
        }
    } else if (TILING_KEY_IS(21) || TILING_KEY_IS(22)) {
        mm.SetWorkspace((__gm__ const float*)user, static_cast<int>(ct.M * ct.N * 4));
        mm.template Iterate<false>();
        const uint32_t blockElems = ct.baseM * ct.baseN;   // the test's shape is whole blocks
        const uint32_t blocks = (ct.M / ct.baseM) * (ct.N / ct.baseN) + (TILING_KEY_IS(22) ? 1 : 0);
        LocalTensor<float> cUb = buf.Get<float>();
        for (uint32_t i = 0; i < blocks; ++i) {
            GlobalTensor<float> blk = mm.GetTensorC();  // @ws-block
            DataCopy(cUb, blk, blockElems);
            SetFlag<HardEvent::MTE2_MTE3>(0);
            WaitFlag<HardEvent::MTE2_MTE3>(0);
            DataCopy(cGm[i * blockElems], cUb, blockElems);
            PipeBarrier<PIPE_ALL>();
        }
    } else if (TILING_KEY_IS(25)) {
        const int32_t half_n = ct.N / 2;
        for (int32_t h = 0; h < 2; ++h) {
            mm.SetSingleShape(ct.M, h == 0 ? half_n : ct.N - half_n, ct.Ka);
            mm.SetTensorB(bGm[h * half_n]);
            mm.Iterate();
            mm.GetTensorC(cGm[h * half_n]);
        }
    } else if (TILING_KEY_IS(23)) {
        if ASCEND_IS_AIV {
            return;
        }
        mm.IterateAll(cGm);
    } else if (TILING_KEY_IS(26)) {   // the cube's own Matmul, never ended (as MatMulV3's cube keys)
        mm.IterateAll(cGm);
        return;
    } else if (TILING_KEY_IS(24)) {
        if ASCEND_IS_AIC {
            return;
        }
        mm.IterateAll(cGm);
    } else if (TILING_KEY_IS(8) || TILING_KEY_IS(9)) {
        mm.SetBias(biasGm);
        if (TILING_KEY_IS(8)) {
            mm.DisableBias();
        } else {
            mm.ClearBias();
        }
        mm.IterateAll(cGm);
    } else if (TILING_KEY_IS(10)) {
        const int32_t half_n = ct.N / 2;
        mm.SetSingleShape(ct.M, half_n, ct.Ka);
        mm.IterateAll(cGm);
        mm.SetTensorB(bGm[half_n]);
        mm.SetSingleShape(ct.M, ct.N - half_n, ct.Ka);
        mm.IterateAll(cGm[half_n]);
    } else {
        mm.IterateAll(cGm);
    }
    mm.End();
}
