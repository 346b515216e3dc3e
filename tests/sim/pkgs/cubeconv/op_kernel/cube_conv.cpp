// The cube's img2col and transposing loads (cube_load3d.h), checked through Mmad and Fixpipe.
// Convolution keys (half only; fm is an h x wd x 16 feature map, NC1HWC0 with one C1; wt is the
// n x (kh * kw * 16) weight matrix, B given transposed; c is the Ho*Wo x n result):
//   1 one Load3Dv2 of the whole img2col matrix, zero padding; 4 the same with padding value -2;
//   2 K in two Load3Dv2s (kStartPt 0 and K / 2), the Mmads accumulating in CO1;
//   3 M in two Load3Dv2s (mStartPt 0 and 16) with the fmatrix and padding value set beforehand
//     (SetFmatrix, SetLoadDataPaddingValue; the load's own values ignored); 5 as 1 with the packed
//     LoadData3DParamsV2Pro after SetFmatrix and SetLoadDataPaddingValue (zero as a uint64_t); 6 as 3 with the repeat
//     and boundary registers set to what changes nothing (SetLoadDataRepeat one repeat,
//     SetLoadDataBoundary past the map); 7 as 1 with B2 filled with ones by InitConstValue (c is
//     the img2col matrix's row sums);
//   11.. misuse the sim must report at the marked line (15 two repeats, 16 a boundary inside the
//     map: both not modelled).
// Transpose keys (half and int8; h = m, wd = k): 20 c = fm (m x k) x wt (k x n) with B loaded by
// LoadDataWithTranspose; 21 c = fm^T x wt^T with fm given k x m and wt given n x k, A loaded by
// LoadDataWithTranspose; 22.. misuse.
#include "kernel_operator.h"
using namespace AscendC;

using A = DTYPE_FM;
using C = DTYPE_C;
constexpr uint32_t C0 = 32 / sizeof(A);
constexpr uint32_t FRAC = 512 / sizeof(A);   // elements of a 512-byte fractal

__aicore__ inline uint32_t Up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

constexpr IsResetLoad3dConfig PRESET = {false, false};

template <class T>
__aicore__ inline void Out(GlobalTensor<C>& cGm, LocalTensor<C>& c1, uint32_t m, uint32_t n)
{
    FixpipeParamsV220 fp;
    fp.mSize = m;
    fp.srcStride = Up(m, 16);
    fp.nSize = n;
    fp.dstStride = n;
    Fixpipe(cGm, c1, fp);
}

// B (n x k, ND) -> B1 (C0-column blocks of N rows) -> B2 (ZN) with LoadData 2D, as cube_api.
__aicore__ inline void LoadB(TPipe& pipe, TBuf<TPosition::B1>& bb1, LocalTensor<A>& b2, GlobalTensor<A>& bGm,
                             uint32_t n, uint32_t k)
{
    const uint32_t N = Up(n, 16), K1 = Up(k, C0) / C0, N1 = N / 16;
    pipe.InitBuffer(bb1, Up(k, C0) * N * sizeof(A));
    LocalTensor<A> b1 = bb1.Get<A>();
    DataCopy(b1, bGm, Nd2NzParams(1, n, k, 0, k, N, 1, 0));
    for (uint32_t kb = 0; kb < K1; ++kb) {
        LoadData(b2[kb * N1 * FRAC], b1, LoadData2DParams(kb * N1, N1, 1, 0, 0, false, 0));
    }
}

extern "C" __global__ __aicore__ void cube_conv(GM_ADDR fm, GM_ADDR wt, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    TPipe pipe;
    TBuf<TPosition::A1> ba1;
    TBuf<TPosition::B1> bb1;
    TBuf<TPosition::A2> ba2;
    TBuf<TPosition::B2> bb2;
    TBuf<TPosition::CO1> bc1;
    GlobalTensor<A> aGm, bGm;
    GlobalTensor<C> cGm;

    if (TILING_KEY_IS(20) || TILING_KEY_IS(21) || TILING_KEY_IS(22) || TILING_KEY_IS(23)) {
        const uint32_t m = t.h, k = t.wd, n = t.n;
        const uint32_t M = Up(m, 16), K = Up(k, C0), N = Up(n, 16), K1 = K / C0, N1 = N / 16;
        aGm.SetGlobalBuffer((__gm__ A*)fm, m * k);
        bGm.SetGlobalBuffer((__gm__ A*)wt, k * n);
        cGm.SetGlobalBuffer((__gm__ C*)c, m * n);
        pipe.InitBuffer(ba2, Up(m, C0) * K * sizeof(A));
        pipe.InitBuffer(bb2, K * Up(n, C0) * sizeof(A));
        pipe.InitBuffer(bc1, M * N * sizeof(C));
        LocalTensor<A> a2 = ba2.Get<A>();
        LocalTensor<A> b2 = bb2.Get<A>();
        if (TILING_KEY_IS(21)) {
            // A given k x m: C0-column blocks (of m) of K rows; each square transposed into ZZ
            pipe.InitBuffer(ba1, K * Up(m, C0) * sizeof(A));
            LocalTensor<A> a1 = ba1.Get<A>();
            DataCopy(a1, aGm, Nd2NzParams(1, k, m, 0, m, K, 1, 0));
            for (uint32_t mb = 0; mb < Up(m, C0) / C0; ++mb) {
                LoadDataWithTranspose(a2[mb * (C0 / 16) * K1 * FRAC], a1[mb * K * C0],
                                      LoadData2dTransposeParams(0, K1, 1, 0, K1 - 1));
            }
            LoadB(pipe, bb1, b2, bGm, n, k);
        } else {
            // A given m x k: 16-row fractals loaded as they are
            pipe.InitBuffer(ba1, M * K * sizeof(A));
            LocalTensor<A> a1 = ba1.Get<A>();
            DataCopy(a1, aGm, Nd2NzParams(1, m, k, 0, k, M, 1, 0));
            for (uint32_t i = 0; i < M / 16; ++i) {
                LoadData(a2[i * K1 * FRAC], a1, LoadData2DParams(i, K1, M / 16, 0, 0, false, 0));
            }
            // B given k x n: C0-column blocks (of n) of K rows; each square transposed into ZN
            pipe.InitBuffer(bb1, K * Up(n, C0) * sizeof(A));
            LocalTensor<A> b1 = bb1.Get<A>();
            DataCopy(b1, bGm, Nd2NzParams(1, k, n, 0, n, K, 1, 0));
            if (TILING_KEY_IS(22)) {
                LoadDataWithTranspose(b2, b1, LoadData2dTransposeParams(1000, 1, 1, 0, 0));  // @tstart
            }
            if (TILING_KEY_IS(23)) {
                LoadDataWithTranspose(b2, b1, LoadData2dTransposeParams(0, 2, 1, 0, 0));  // @overlap
            }
            for (uint32_t nb = 0; nb < Up(n, C0) / C0; ++nb) {
                LoadDataWithTranspose(b2[nb * (C0 / 16) * FRAC], b1[nb * K * C0],
                                      LoadData2dTransposeParams(0, K1, 1, N1 - 1, 0));
            }
        }
        LocalTensor<C> c1 = bc1.Get<C>();
        Mmad(c1, a2, b2, MmadParams(m, n, k, 0, false, true));
        Out<C>(cGm, c1, m, n);
        return;
    }

    const uint32_t H = t.h, W = t.wd, KH = t.kh, KW = t.kw, S = t.s, P = t.p, n = t.n;
    const uint32_t Ho = (H + 2 * P - KH) / S + 1, Wo = (W + 2 * P - KW) / S + 1;
    const uint32_t M = Ho * Wo, K = KH * KW * C0, N = Up(n, 16), K1 = K / C0, N1 = N / 16;
    aGm.SetGlobalBuffer((__gm__ A*)fm, H * W * C0);
    bGm.SetGlobalBuffer((__gm__ A*)wt, n * K);
    cGm.SetGlobalBuffer((__gm__ C*)c, M * n);
    pipe.InitBuffer(ba1, H * W * C0 * sizeof(A));
    pipe.InitBuffer(ba2, Up(M, 16) * K * sizeof(A));
    pipe.InitBuffer(bb2, K * N * sizeof(A));
    pipe.InitBuffer(bc1, Up(M, 16) * N * sizeof(C));
    LocalTensor<A> a1 = ba1.Get<A>();
    LocalTensor<A> a2 = ba2.Get<A>();
    LocalTensor<A> b2 = bb2.Get<A>();
    LocalTensor<C> c1 = bc1.Get<C>();
    DataCopy(a1, aGm, H * W * C0);
    LoadB(pipe, bb1, b2, bGm, n, K);

    const uint8_t pad[4] = {uint8_t(P), uint8_t(P), uint8_t(P), uint8_t(P)};
    const A padValue = TILING_KEY_IS(4) ? A(-2.0f) : A(0);
    LoadData3DParamsV2<A> p(pad, H, W, C0, K, M, 0, 0, S, S, KW, KH, 1, 1, false, false, padValue);
    if (TILING_KEY_IS(2)) {
        p.kExtension = K / 2;
        LoadData(a2, a1, p);
        Mmad(c1, a2, b2, MmadParams(M, n, K / 2, 0, false, true));
        p.kStartPt = K / 2;
        LoadData(a2, a1, p);
        Mmad(c1, a2, b2[(K1 / 2) * N1 * FRAC], MmadParams(M, n, K / 2, 0, false, false));
    } else if (TILING_KEY_IS(3) || TILING_KEY_IS(6)) {
        if (TILING_KEY_IS(6)) {
            SetLoadDataRepeat(LoadDataRepeatParam(0, 1, 0));
            SetLoadDataBoundary(Up(H * W * C0 * sizeof(A), 1024));   // bytes; at least 1024
        }
        SetFmatrix(H, W, pad, FmatrixMode::FMATRIX_LEFT);
        SetLoadDataPaddingValue(A(0));
        LoadData3DParamsV2<A> q = p;
        q.l1H = 1;                    // ignored: the fmatrix and padding value come from the registers
        q.padValue = A(5.0f);
        q.mExtension = 16;
        LoadData<A, PRESET>(a2, a1, q);
        q.mStartPt = 16;
        q.mExtension = M - 16;
        LoadData<A, PRESET>(a2[16 * K], a1, q);
        Mmad(c1, a2, b2, MmadParams(M, n, K, 0, false, true));
    } else if (TILING_KEY_IS(5)) {
        Load3DSetFMatrixCal(H, W, pad);   // the impl layer's setter of the left FMATRIX (ops-nn's pp_matmul)
        SetLoadDataPaddingValue<uint64_t>(0);   // zero set as an 8-byte type, as the pp_matmul kernels do
        const uint64_t ext = uint64_t(K) | (uint64_t(M) << 16);   // kStartPt, mStartPt 0
        const uint64_t filter = uint64_t(S) | (uint64_t(S) << 8) | (uint64_t(KW) << 16) | (uint64_t(KH) << 24) |
                                (1ull << 32) | (1ull << 40);
        LoadData(a2, a1, LoadData3DParamsV2Pro(C0, false, false, false, false, false, ext, filter));
        Mmad(c1, a2, b2, MmadParams(M, n, K, 0, false, true));
    } else {
        if (TILING_KEY_IS(11)) {
            p.strideW = 64;
            LoadData(a2, a1, p);  // @stride-range
        }
        if (TILING_KEY_IS(12)) {
            p.channelSize = 20;
            LoadData(a2, a1, p);  // @channel
        }
        if (TILING_KEY_IS(13)) {
            p.kStartPt = 8;
            LoadData(a2, a1, p);  // @kstart
        }
        if (TILING_KEY_IS(14)) {
            LoadData<A, PRESET>(a2, a1, p);  // @no-fmatrix
        }
        if (TILING_KEY_IS(15)) {
            SetLoadDataRepeat(LoadDataRepeatParam(0, 2, 0));
            LoadData(a2, a1, p);  // @two-repeats
        }
        if (TILING_KEY_IS(16)) {
            SetLoadDataBoundary(1024);
            LoadData(a2, a1, p);  // @boundary
        }
        if constexpr (sizeof(A) == 2) {   // InitConstValue has no 1-byte types
            if (TILING_KEY_IS(7)) {   // B2 all ones, K1 x N1 fractals of 512 bytes
                InitConstValue(b2, InitConstValueParams<A>(1, K1 * N1, 0, A(1.0f)));
            }
        }
        LoadData(a2, a1, p);
        Mmad(c1, a2, b2, MmadParams(M, n, K, 0, false, true));
    }
    Out<C>(cGm, c1, M, n);
}
