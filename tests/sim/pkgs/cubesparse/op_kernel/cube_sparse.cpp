// c = a x sparse B through LoadDataWithSparse and MmadWithSparse. a is A's A2 image (ZZ fractals,
// m padded to 16, k to 32), b the densified B's B2 image (k/2 x n: fractals of 16 columns x 32
// rows, n padded to 16), idx its index bytes (128 per fractal); all copied to L1 as they are,
// then to L0. Keys: 1 the product; 2 the same without the index load (plain LoadData: the
// product reads B2 values with no index); 3 the product stored as half by Fixpipe's VDEQF16, the
// per-channel scales q copied to L1 as its cbufWorkspace (c's first m x n halves); 4 VDEQF16
// without a cbufWorkspace. Through the Matmul API (SparseMatmulType B, as ops-nn's
// sparse4to2quant_matmul declares it): 5 a as A in GM ND (m x k), b as the densified B^T in GM NZ
// (its B2 image is that layout) and idx as SetSparseIndex's index (its image too), IterateAll to
// c; 6 the same without SetSparseIndex.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

__aicore__ inline uint32_t Up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

extern "C" __global__ __aicore__ void cube_sparse(GM_ADDR a, GM_ADDR b, GM_ADDR idx, GM_ADDR q, GM_ADDR c,
                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);   // a cube kernel: the AIC of each AI core runs it
    GET_TILING_DATA(t, tiling);
    const uint32_t m = t.m, n = t.n, k = t.k;
    const uint32_t M = Up(m, 16), N = Up(n, 16), K = Up(k, 32), KD = Up(k / 2, 32);
    GlobalTensor<int8_t> aGm, bGm;
    GlobalTensor<uint8_t> iGm;
    GlobalTensor<int32_t> cGm;
    aGm.SetGlobalBuffer((__gm__ int8_t*)a, M * K);
    bGm.SetGlobalBuffer((__gm__ int8_t*)b, KD * N);
    iGm.SetGlobalBuffer((__gm__ uint8_t*)idx, KD * N / 4);
    cGm.SetGlobalBuffer((__gm__ int32_t*)c, m * n);
    TPipe pipe;
    if (TILING_KEY_IS(5) || TILING_KEY_IS(6)) {
        TCubeTiling ct;
        ct.usedCoreNum = 1;
        ct.M = m;
        ct.N = n;
        ct.Ka = k;
        ct.Kb = k;
        ct.singleCoreM = m;
        ct.singleCoreN = n;
        ct.singleCoreK = k;
        ct.baseM = 16;
        ct.baseN = 16;
        ct.baseK = 64;
        ct.isBias = 0;
        Matmul<MatmulType<TPosition::GM, CubeFormat::ND, int8_t>,
               SparseMatmulType<TPosition::GM, TPosition::GM, CubeFormat::NZ, int8_t, true>,
               MatmulType<TPosition::GM, CubeFormat::ND, int32_t>> mm;
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &ct);
        mm.SetTensorA(aGm);
        mm.SetTensorB(bGm, true);
        if (TILING_KEY_IS(5)) mm.SetSparseIndex(iGm);
        mm.IterateAll(cGm);  // @mm-sparse
        mm.End();
        return;
    }
    TBuf<TPosition::A1> ba1;
    TBuf<TPosition::B1> bb1, bi1;
    TBuf<TPosition::A2> ba2;
    TBuf<TPosition::B2> bb2;
    TBuf<TPosition::CO1> bc1;
    pipe.InitBuffer(ba1, M * K);
    pipe.InitBuffer(bb1, KD * N);
    pipe.InitBuffer(bi1, KD * N / 4);
    pipe.InitBuffer(ba2, M * K);
    pipe.InitBuffer(bb2, KD * N);
    pipe.InitBuffer(bc1, M * N * 4);
    LocalTensor<int8_t> a1 = ba1.Get<int8_t>(), b1 = bb1.Get<int8_t>(), a2 = ba2.Get<int8_t>(), b2 = bb2.Get<int8_t>();
    LocalTensor<uint8_t> i1 = bi1.Get<uint8_t>();
    LocalTensor<int32_t> c1 = bc1.Get<int32_t>();
    DataCopy(a1, aGm, M * K);
    DataCopy(b1, bGm, KD * N);
    DataCopy(i1, iGm, KD * N / 4);
    PipeBarrier<PIPE_ALL>();
    LoadData(a2, a1, LoadData2DParams(0, M * K / 512, 1, 0, 0, false, 0));
    if (TILING_KEY_IS(2)) {
        LoadData(b2, b1, LoadData2DParams(0, KD * N / 512, 1, 0, 0, false, 0));
    } else {
        LoadDataWithSparse(b2, b1, i1, LoadData2dParams(0, KD * N / 512, 1, 0, 0, false, 0));
    }
    PipeBarrier<PIPE_ALL>();
    MmadWithSparse(c1, a2, b2, MmadParams(m, n, k, 0, false, true));  // @mmad
    PipeBarrier<PIPE_ALL>();
    FixpipeParamsV220 fp(n, m, M, n, false);
    if (TILING_KEY_IS(3) || TILING_KEY_IS(4)) {
        GlobalTensor<half> hGm;
        hGm.SetGlobalBuffer((__gm__ half*)c, m * n);
        fp.quantPre = QuantMode_t::VDEQF16;
        if (TILING_KEY_IS(4)) {
            Fixpipe(hGm, c1, fp);  // @vdeq
            return;
        }
        GlobalTensor<uint64_t> qGm;
        qGm.SetGlobalBuffer((__gm__ uint64_t*)q, N);
        TBuf<TPosition::C1> bq;
        pipe.InitBuffer(bq, N * sizeof(uint64_t));
        LocalTensor<uint64_t> q1 = bq.Get<uint64_t>();
        DataCopy(q1, qGm, N);
        PipeBarrier<PIPE_ALL>();
        Fixpipe(hGm, c1, q1, fp);
        return;
    }
    Fixpipe(cGm, c1, fp);
}
