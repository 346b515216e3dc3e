// c = a x b through the cube basic APIs: GM -> A1/B1 (Nd2Nz), A1/B1 -> A2/B2 (LoadData 2D), Mmad
// into CO1, Fixpipe to GM. Keys: 1 B as k x n, loaded with ifTranspose (2-byte types); 2 B given
// transposed (n x k), K in two iterations accumulated in CO1; 3 as 2 in one iteration; 4 as 3
// with an NZ result; 5 as 3 plus a bias (float16 only): the first n elements of a, GM -> C1 ->
// C2 (the bias table, converted to float), the Mmad starting from it; 6 as 3 (int8 only) with the
// int32 result stored as half x 0.25 by Fixpipe's DEQF16 (21: without quantPre); 7 as 5 for float32
// with the plain DataCopy count forms (GM -> C1, then C1 -> C2 of the same type), 8 the same with
// DataCopyParams; 10.. misuse the sim must report at the marked line (18: DataCopyPad, a UB-only
// API, on an L1 tensor; 22: a same-type C1 -> C2 count that is not whole 64-byte bursts; 23, 24:
// L0B and L0C overflow); 25 as 3 stored by DataCopy CO1 -> GM (DataCopyCO12DstParams) with NZ2ND
// from SetFixpipeNz2ndFlag; 26 (int8 only) as 6 through DataCopy with the scale from
// SetFixpipePreQuantFlag and a ReLU; 27 nz2ndEn with no SetFixpipeNz2ndFlag.
// The 8-bit and channel-split Fixpipe modes (asc-devkit docs, "随路量化", "Int8 Channel Merge",
// "F32 Channel Split"): 28 (int8) REQ8 to int8, ND, with the scalar value QuantValue(0.05, offset
// 3, int8); 29 (int8) VREQ8 to uint8 with a ReLU, NZ (two 16-column fractals merged into 32, the
// last one alone when N / 16 is odd), the per-channel values from the n uint64 after a's m x k
// bytes (at a's first 32-byte boundary after them), GM -> L1 -> Fixpipe's cbufWorkspace; 30 (int8)
// the same values through L1 -> C2PIPE2GM, SetFixPipeConfig and DataCopy CO1 -> GM with VREQ8 and
// NZ2ND, int8 (their Sign bits); 31 (float32) Fixpipe with isChannelSplit, 8-column Z blocks of
// m rows; 32 (float16) QF322B8_PRE of the float result, MCB set and ignored, to int8 ND; 33
// (int8) VREQ8 through DataCopy with no SetFixPipeConfig; 34 (float16, n == k) C to L1 by Fixpipe
// (half, NZ, F322F16) and multiplied by B again: c = half(a x b) x b. 35 / 36 as 3 / 4 through the
// earlier Fixpipe form FixpipeParams<T> (cburstNum, burstLen, gaps; NZ2ND for 35). 40 as 34
// through DataCopy CO1 -> L1 (DataCopyCO12DstParams, ops-nn's flat_quant's form). 41 as 3 with
// C in a default-constructed LocalTensor (never given an address, as ops-nn's gemm_v3's L0C).
#include "kernel_operator.h"
using namespace AscendC;

using A = DTYPE_A;
using C = DTYPE_C;
constexpr uint32_t C0 = 32 / sizeof(A);

__aicore__ inline uint32_t Up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

// The DEQF16 scale of the int8 keys, 0.0123, as the uint64 quantisation value: the float's bits.
__aicore__ inline uint64_t DeqScaleValue()
{
    const float scale = 0.0123f;
    uint32_t bits;
    memcpy(&bits, &scale, sizeof bits);
    return bits;
}

// A quantisation value (QUANT_PRE): the scale's float bits in 0..31, N - 1 in 32..35, MCB in 36, a
// 9-bit offset in 37..45, Sign in 46.
__aicore__ inline uint64_t QuantValue(float scale, int32_t offset, bool sign, bool mcb = false, uint32_t shift = 1)
{
    uint32_t bits;
    memcpy(&bits, &scale, sizeof bits);
    return uint64_t(bits) | (uint64_t(shift - 1) << 32) | (uint64_t(mcb) << 36) |
           (uint64_t(uint32_t(offset) & 0x1FF) << 37) | (uint64_t(sign) << 46);
}

extern "C" __global__ __aicore__ void cube_api(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const uint32_t m = t.m, n = t.n, k = t.k;
    const uint32_t M = Up(m, 16), N = Up(n, 16), K = Up(k, C0);
    const uint32_t M1 = M / 16, N1 = N / 16, K1 = K / C0;
    const bool transposeLoad = TILING_KEY_IS(1);
    const uint32_t iters = TILING_KEY_IS(2) ? 2 : 1;
    const uint32_t KB = K1 / iters;   // K fractals per iteration

    TPipe pipe;
    TQue<TPosition::A1, 1> qa1;
    TQue<TPosition::B1, 1> qb1;
    TQue<TPosition::A2, 1> qa2;
    TQue<TPosition::B2, 1> qb2;
    TQue<TPosition::CO1, 1> qc1;
    TQue<TPosition::C1, 1> qbias1;
    TQue<TPosition::C2, 1> qbias2;
    GlobalTensor<A> aGm, bGm;
    GlobalTensor<C> cGm;
    aGm.SetGlobalBuffer((__gm__ A*)a, m * k);
    bGm.SetGlobalBuffer((__gm__ A*)b, k * n);
    cGm.SetGlobalBuffer((__gm__ C*)c, m * n);
    if (TILING_KEY_IS(15)) {
        pipe.InitBuffer(qa1, 2, 300 * 1024);  // @l1-overflow
    }
    pipe.InitBuffer(qa1, 1, M * K * sizeof(A));
    pipe.InitBuffer(qb1, 1, K * N * sizeof(A));
    if (TILING_KEY_IS(10)) {
        pipe.InitBuffer(qa2, 2, 40 * 1024);  // @l0a-overflow
    }
    pipe.InitBuffer(qa2, 1, M * KB * C0 * sizeof(A));
    if (TILING_KEY_IS(23)) {
        pipe.InitBuffer(qb2, 2, 40 * 1024);  // @l0b-overflow
    }
    pipe.InitBuffer(qb2, 1, KB * C0 * N * sizeof(A));
    if (TILING_KEY_IS(24)) {
        pipe.InitBuffer(qc1, 2, 80 * 1024);  // @l0c-overflow
    }
    pipe.InitBuffer(qc1, 1, M * N * sizeof(C));

    LocalTensor<A> a1 = qa1.AllocTensor<A>();
    if (TILING_KEY_IS(18)) {
        DataCopyPad(a1, aGm, DataCopyExtParams(1, 32, 0, 0, 0), DataCopyPadExtParams<A>(false, 0, 0, 0));  // @plain-copy
    }
    Nd2NzParams pa(1, m, k, 0, k, M, 1, 0);
    DataCopy(a1, aGm, pa);
    qa1.EnQue(a1);
    a1 = qa1.DeQue<A>();
    LocalTensor<A> b1 = qb1.AllocTensor<A>();
    if (transposeLoad) {
        Nd2NzParams pb(1, k, n, 0, n, K, 1, 0);    // k x n: 16-column blocks of K rows
        DataCopy(b1, bGm, pb);
    } else {
        Nd2NzParams pb(1, n, k, 0, k, N, 1, 0);    // n x k: C0-column blocks of N rows
        DataCopy(b1, bGm, pb);
    }
    qb1.EnQue(b1);
    b1 = qb1.DeQue<A>();

    const bool withBias = TILING_KEY_IS(5) || TILING_KEY_IS(19) || TILING_KEY_IS(20) || TILING_KEY_IS(7) ||
                          TILING_KEY_IS(8) || TILING_KEY_IS(22);
    LocalTensor<float> bias2;
    if constexpr (std::is_same<A, half>::value) {
        if (withBias) {
            pipe.InitBuffer(qbias1, 1, Up(N * sizeof(A), 64));   // the C1->C2 bursts are 64 bytes
            pipe.InitBuffer(qbias2, 1, Up(N * sizeof(A), 64) * 2);   // each burst fills twice its length
            LocalTensor<A> bias1 = qbias1.AllocTensor<A>();
            DataCopy(bias1, aGm, Nd2NzParams(1, 1, n, 0, n, 1, 1, 0));
            qbias1.EnQue(bias1);
            bias1 = qbias1.DeQue<A>();
            bias2 = qbias2.AllocTensor<float>();
            uint16_t bursts = (n * sizeof(A) + 63) / 64;
            if (TILING_KEY_IS(20)) {
                bursts = Up(N * sizeof(A), 64) / 64 + 2;   // more 64-byte bursts than C1 holds
            }
            if (!TILING_KEY_IS(19)) {
                DataCopy(bias2, bias1, DataCopyParams(1, bursts, 0, 0));  // @bias-copy
            }
            qbias1.FreeTensor(bias1);
        }
    }
    if constexpr (std::is_same<A, float>::value) {
        if (withBias) {
            // no conversion: the bias is float already, moved in whole 64-byte bursts (16 floats)
            const uint32_t nb = Up(n, 16);
            pipe.InitBuffer(qbias1, 1, nb * sizeof(float));
            pipe.InitBuffer(qbias2, 1, nb * sizeof(float));
            LocalTensor<A> bias1 = qbias1.AllocTensor<A>();
            if (TILING_KEY_IS(8)) {
                DataCopy(bias1, aGm, DataCopyParams(1, nb * sizeof(float) / 32, 0, 0));
            } else {
                DataCopy(bias1, aGm, nb);
            }
            qbias1.EnQue(bias1);
            bias1 = qbias1.DeQue<A>();
            LocalTensor<A> table = qbias2.AllocTensor<A>();   // A is float here
            if (TILING_KEY_IS(8)) {
                DataCopy(table, bias1, DataCopyParams(1, nb * sizeof(float) / 64, 0, 0));
            } else {
                DataCopy(table, bias1, TILING_KEY_IS(22) ? nb - 8 : nb);  // @bias-count
            }
            bias2 = table.template ReinterpretCast<float>();
            qbias1.FreeTensor(bias1);
        }
    }
    LocalTensor<C> c1 = qc1.AllocTensor<C>();
    LocalTensor<C> unaddressed;
    if (TILING_KEY_IS(41)) {
        qc1.FreeTensor(c1);
        c1 = unaddressed;   // a copy of a tensor with no address: the Mmad below gives it none either
    }
    for (uint32_t it = 0; it < iters; ++it) {
        const uint32_t kb0 = it * KB;
        LocalTensor<A> a2 = qa2.AllocTensor<A>();
        for (uint32_t i = 0; i < M1; ++i) {
            LoadData(a2[i * KB * 16 * C0], a1, LoadData2DParams(i + kb0 * M1, KB, M1, 0, 0, false, 0));
        }
        LocalTensor<A> b2 = qb2.AllocTensor<A>();
        const uint32_t loaded = TILING_KEY_IS(17) ? 1 : KB;
        for (uint32_t j = 0; j < loaded; ++j) {
            if (transposeLoad) {
                LoadData(b2[j * N1 * 16 * C0], b1, LoadData2DParams(kb0 + j, N1, K1, 0, 0, true, 0));  // @transpose
            } else {
                LoadData(b2[j * N1 * 16 * C0], b1, LoadData2DParams((kb0 + j) * N1, N1, 1, 0, 0, false, 0));
            }
        }
        qa2.EnQue(a2);
        qb2.EnQue(b2);
        a2 = qa2.DeQue<A>();
        b2 = qb2.DeQue<A>();
        if (TILING_KEY_IS(39)) {
            // the same L0A and L0B bytes as tensors made by address (the queues' buffers start
            // each buffer), as ops-nn's pp_matmul utilities make theirs
            a2 = LocalTensor<A>(TPosition::A2, 0, a2.GetSize());
            b2 = LocalTensor<A>(TPosition::B2, 0, b2.GetSize());
        }
        MmadParams mp;
        mp.m = m;
        mp.n = n;
        mp.k = (kb0 + KB) * C0 <= k ? KB * C0 : k - kb0 * C0;
        mp.cmatrixInitVal = it == 0 && !TILING_KEY_IS(14);
        if (TILING_KEY_IS(11)) {
            mp.k = k + C0;
        }
        if (withBias && it == 0) {
            if constexpr (std::is_same<A, half>::value || std::is_same<A, float>::value) {
                Mmad(c1, a2, b2, bias2, mp);  // @bias-mmad
            }
        } else if (TILING_KEY_IS(13)) {
            Mmad(c1, a2[16], b2, mp);  // @misaligned
        } else if (!TILING_KEY_IS(12)) {
            Mmad(c1, a2, b2, mp);  // @mmad
        }
        qa2.FreeTensor(a2);
        qb2.FreeTensor(b2);
    }
    qa1.FreeTensor(a1);
    qb1.FreeTensor(b1);
    if (withBias) {
        qbias2.FreeTensor(bias2);
    }
    qc1.EnQue(c1);
    c1 = qc1.DeQue<C>();
    FixpipeParamsV220 fp;
    fp.mSize = m;
    fp.srcStride = M;
    if (TILING_KEY_IS(25) || TILING_KEY_IS(27)) {
        if (TILING_KEY_IS(25)) {
            SetFixpipeNz2ndFlag(1, 0, 0);   // one matrix: the strides unused (ops-nn's gemm_v3)
        }
        DataCopy(cGm, c1, DataCopyCO12DstParams(N, m, n, M, QuantMode_t::NoQuant, 0, false, true));  // @co12
    } else if (TILING_KEY_IS(26)) {
        if constexpr (std::is_same<C, int32_t>::value) {
            GlobalTensor<half> hGm;
            hGm.SetGlobalBuffer((__gm__ half*)c, m * n);
            SetFixpipePreQuantFlag(DeqScaleValue());
            SetFixpipeNz2ndFlag(1, 0, n);
            DataCopy(hGm, c1, DataCopyCO12DstParams(N, m, n, M, QuantMode_t::DEQF16, 1, false, true));
        }
    } else if (TILING_KEY_IS(28) || TILING_KEY_IS(32)) {
        GlobalTensor<int8_t> bGm8;
        bGm8.SetGlobalBuffer((__gm__ int8_t*)c, m * n);
        fp.nSize = n;
        fp.dstStride = n;
        if constexpr (std::is_same<C, int32_t>::value) {
            fp.quantPre = QuantMode_t::REQ8;
            fp.deqScalar = QuantValue(0.05f, 3, true);
        } else {
            fp.quantPre = QuantMode_t::QF322B8_PRE;
            fp.deqScalar = QuantValue(40.0f, -2, true, true, 4);
        }
        Fixpipe(bGm8, c1, fp);
    } else if (TILING_KEY_IS(29) || TILING_KEY_IS(30) || TILING_KEY_IS(33)) {
        if constexpr (std::is_same<C, int32_t>::value) {
            TBuf<TPosition::C1> qq1;
            TBuf<TPosition::C2PIPE2GM> qfb;
            pipe.InitBuffer(qq1, Up(N * 8, 128));
            LocalTensor<uint64_t> q1 = qq1.Get<uint64_t>();
            GlobalTensor<uint64_t> qGm;
            qGm.SetGlobalBuffer((__gm__ uint64_t*)(a + Up(m * k, 32)), n);
            DataCopy(q1, qGm, Up(n, 4));
            if (TILING_KEY_IS(29)) {
                GlobalTensor<uint8_t> uGm;
                uGm.SetGlobalBuffer((__gm__ uint8_t*)c, m * N);
                fp.nSize = N;
                fp.dstStride = m;   // Z blocks of m rows x 32 bytes, back to back
                fp.quantPre = QuantMode_t::VREQ8;
                fp.reluEn = true;
                Fixpipe<uint8_t, C, CFG_NZ>(uGm, c1, q1, fp);
            } else {
                pipe.InitBuffer(qfb, Up(N * 8, 128));
                LocalTensor<uint64_t> fb = qfb.Get<uint64_t>();
                GlobalTensor<int8_t> bGm8;
                bGm8.SetGlobalBuffer((__gm__ int8_t*)c, m * n);
                if (TILING_KEY_IS(30)) {
                    DataCopy(fb, q1, DataCopyParams(1, Up(N * 8, 128) / 128, 0, 0));
                    SetFixPipeConfig(fb);
                }
                SetFixpipeNz2ndFlag(1, 0, n);
                DataCopy(bGm8, c1, DataCopyCO12DstParams(N, m, n, M, QuantMode_t::VREQ8, 0, false, true));  // @vreq8
            }
        }
    } else if (TILING_KEY_IS(34) || TILING_KEY_IS(38) || TILING_KEY_IS(40)) {
        // C to L1 as half NZ (F322F16), the A operand of a second product with the same B (n == k);
        // a generic lambda so that only the float16 variant instantiates it
        auto chained = [&](auto tag) {
            using H = decltype(tag);
            if constexpr (std::is_same<H, half>::value) {
                LocalTensor<H> l1c = qa1.template AllocTensor<H>();
                if (TILING_KEY_IS(38)) {
                    // the earlier parameter form: N / 16 bursts of m rows (m x 16 floats in 32-byte
                    // blocks), the destination gap M - m blocks after each burst of m
                    FixpipeParams<C> legacy(uint16_t(N / 16), uint16_t(m * 16 * sizeof(C) / 32), 0, M - m);
                    legacy.quantParams = {QuantMode_t::F322F16};
                    Fixpipe(l1c, c1, legacy);
                } else if (TILING_KEY_IS(40)) {
                    // N columns of m rows, Z blocks M rows (blocks) apart in L1, M rows apart in CO1
                    DataCopy(l1c, c1, DataCopyCO12DstParams(N, m, M, M, QuantMode_t::F322F16, 0, false, false));
                } else {
                    fp.nSize = N;
                    fp.dstStride = M;   // Z blocks of M rows x 32 bytes: the NZ layout Nd2Nz gives A
                    fp.quantPre = QuantMode_t::F322F16;
                    Fixpipe<H, C, CFG_NZ>(l1c, c1, fp);
                }
                PipeBarrier<PIPE_ALL>();
                GlobalTensor<H> bh;
                bh.SetGlobalBuffer((__gm__ H*)b, k * n);
                LocalTensor<H> b1 = qb1.template AllocTensor<H>();
                DataCopy(b1, bh, Nd2NzParams(1, n, k, 0, k, N, 1, 0));
                PipeBarrier<PIPE_ALL>();
                LocalTensor<H> a2 = qa2.template AllocTensor<H>();
                for (uint32_t i = 0; i < M1; ++i) {
                    LoadData(a2[i * K1 * 16 * C0], l1c, LoadData2DParams(i, K1, M1, 0, 0, false, 0));
                }
                LocalTensor<H> b2 = qb2.template AllocTensor<H>();
                for (uint32_t j = 0; j < K1; ++j) {
                    LoadData(b2[j * N1 * 16 * C0], b1, LoadData2DParams(j * N1, N1, 1, 0, 0, false, 0));
                }
                PipeBarrier<PIPE_ALL>();
                MmadParams mp2;
                mp2.m = m;
                mp2.n = n;
                mp2.k = k;
                Mmad(c1, a2, b2, mp2);
                PipeBarrier<PIPE_ALL>();
                qa2.FreeTensor(a2);
                qb2.FreeTensor(b2);
                qa1.FreeTensor(l1c);
                qb1.FreeTensor(b1);
                FixpipeParamsV220 out(n, m, M, n, false);
                Fixpipe(cGm, c1, out);
            }
        };
        chained(A());
    } else if (TILING_KEY_IS(37)) {
        // the older architectures' L0C -> UB copy (ops-nn's pp_matmul l0c_to_ub iterator), which
        // the A2/A3 generation does not have
        TBuf<TPosition::VECCALC> ub;
        pipe.InitBuffer(ub, 1024);
        LocalTensor<C> u = ub.Get<C>();
        DataCopyEnhancedParams e(BlockMode::BLOCK_MODE_MATRIX, DeqScale::DEQ_NONE, 0, 0, false, pad_t::PAD_NONE, 0);
        DataCopy(u, c1, DataCopyParams(1, 1, 0, 0), e);  // @l0c-to-ub
    } else if (TILING_KEY_IS(31)) {
        fp.nSize = Up(n, 8);
        fp.dstStride = m * 8 * sizeof(C) / 32;   // Z blocks of m rows x 8 floats, back to back
        fp.isChannelSplit = true;
        Fixpipe<C, C, CFG_NZ>(cGm, c1, fp);
    } else if (TILING_KEY_IS(4)) {
        fp.nSize = N;
        fp.dstStride = m * 16 * sizeof(C) / 32;   // column blocks of m rows x 16, back to back
        Fixpipe<C, C, CFG_NZ>(cGm, c1, fp);
    } else if (TILING_KEY_IS(35) || TILING_KEY_IS(36)) {
        // the earlier parameter form: N / 16 bursts of m rows (m x 16 x 4 bytes, in 32-byte
        // blocks), no gap between CO1's column blocks (M rows apart); 35 NZ2ND to n-element rows,
        // 36 NZ with the bursts back to back
        FixpipeParams<C> legacy(uint16_t(N / 16), uint16_t(m * 16 * sizeof(C) / 32), uint16_t((M - Up(m, 16)) / 16),
                                TILING_KEY_IS(35) ? n : 0);
        if (TILING_KEY_IS(35)) legacy.nz2ndParams = {true, 1, 0, 0, static_cast<uint16_t>(n)};
        Fixpipe(cGm, c1, legacy);
    } else if (TILING_KEY_IS(6) || TILING_KEY_IS(21)) {
        if constexpr (std::is_same<C, int32_t>::value) {
            // int32 CO1 -> half in the first m x n halves of c, scaled by 0.0123 (DEQF16)
            GlobalTensor<half> hGm;
            hGm.SetGlobalBuffer((__gm__ half*)c, m * n);
            fp.nSize = n;
            fp.dstStride = n;
            fp.quantPre = TILING_KEY_IS(6) ? QuantMode_t::DEQF16 : QuantMode_t::NoQuant;
            fp.deqScalar = DeqScaleValue();
            Fixpipe(hGm, c1, fp);  // @deq
        }
    } else {
        fp.nSize = n;
        fp.dstStride = n;
        Fixpipe(cGm, c1, fp);  // @fixpipe
    }
    if (!TILING_KEY_IS(41)) {
        qc1.FreeTensor(c1);
    }
}
