// MatmulBasicCustom: c = a x b (+ bias) with the cube basic APIs. Per output tile and K step:
// GM (ND) -> A1/B1 (NZ) by DataCopy with Nd2NzParams, A1 -> A2 by LoadData (ZZ fractals),
// B1 -> B2 by LoadData with ifTranspose (ZN fractals), Mmad accumulating in CO1, and once per
// tile Fixpipe CO1 -> GM as ND float. Ragged edges are padded to 16 in L1/L0; Mmad and Fixpipe
// take the exact sizes, so the padding never reaches the result. With a bias, the tile's slice
// goes GM -> C1 (one Nd2Nz row) -> C2, the bias table, converted to float on the way, and the
// first K step's Mmad starts from it instead of zero.
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t FRACTAL = 16;   // half: 16 x 16 fractals

__aicore__ inline uint32_t AlignUp16(uint32_t v) { return (v + FRACTAL - 1) / FRACTAL * FRACTAL; }
__aicore__ inline uint32_t Min(uint32_t a, uint32_t b) { return a < b ? a : b; }

class KernelMatmulBasic {
public:
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, const MatmulBasicCustomTilingData& t)
    {
        hasBias_ = t.hasBias != 0;
        m_ = t.m;
        n_ = t.n;
        k_ = t.k;
        baseM_ = t.baseM;
        baseN_ = t.baseN;
        baseK_ = t.baseK;
        tilesM_ = t.tilesM;
        tilesN_ = t.tilesN;
        aGm_.SetGlobalBuffer((__gm__ half*)a, uint64_t(m_) * k_);
        bGm_.SetGlobalBuffer((__gm__ half*)b, uint64_t(k_) * n_);
        cGm_.SetGlobalBuffer((__gm__ float*)c, uint64_t(m_) * n_);
        pipe_.InitBuffer(qA1_, BUFFER_NUM, baseM_ * baseK_ * sizeof(half));
        pipe_.InitBuffer(qB1_, BUFFER_NUM, baseK_ * baseN_ * sizeof(half));
        pipe_.InitBuffer(qA2_, BUFFER_NUM, baseM_ * baseK_ * sizeof(half));
        pipe_.InitBuffer(qB2_, BUFFER_NUM, baseK_ * baseN_ * sizeof(half));
        pipe_.InitBuffer(qC1_, 1, baseM_ * baseN_ * sizeof(float));
        if (hasBias_) {
            biasGm_.SetGlobalBuffer((__gm__ half*)bias, n_);
            pipe_.InitBuffer(qBiasC1_, 1, baseN_ * sizeof(half));
            pipe_.InitBuffer(qBiasC2_, 1, baseN_ * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        for (uint32_t tile = GetBlockIdx(); tile < tilesM_ * tilesN_; tile += GetBlockNum()) {
            ComputeTile(tile / tilesN_, tile % tilesN_);
        }
    }

private:
    __aicore__ inline void ComputeTile(uint32_t tm, uint32_t tn)
    {
        const uint32_t m0 = tm * baseM_, n0 = tn * baseN_;
        const uint32_t mLen = Min(baseM_, m_ - m0), nLen = Min(baseN_, n_ - n0);
        const uint32_t mPad = AlignUp16(mLen), nPad = AlignUp16(nLen);
        LocalTensor<float> c1 = qC1_.AllocTensor<float>();
        LocalTensor<float> biasC2;
        if (hasBias_) {
            CopyBiasIn(n0, nLen);
            biasC2 = qBiasC2_.DeQue<float>();
        }
        for (uint32_t k0 = 0; k0 < k_; k0 += baseK_) {
            const uint32_t kLen = Min(baseK_, k_ - k0), kPad = AlignUp16(kLen);
            CopyIn(m0, n0, k0, mLen, nLen, kLen, mPad, kPad);
            SplitA(mPad, kPad);
            SplitB(nPad, kPad);
            LocalTensor<half> a2 = qA2_.DeQue<half>();
            LocalTensor<half> b2 = qB2_.DeQue<half>();
            MmadParams mp;
            mp.m = mLen;
            mp.n = nLen;
            mp.k = kLen;
            mp.cmatrixInitVal = (k0 == 0);
            if (hasBias_ && k0 == 0) {
                Mmad(c1, a2, b2, biasC2, mp);   // C starts from the bias table
            } else {
                Mmad(c1, a2, b2, mp);
            }
            qA2_.FreeTensor(a2);
            qB2_.FreeTensor(b2);
        }
        if (hasBias_) {
            qBiasC2_.FreeTensor(biasC2);
        }
        qC1_.EnQue(c1);
        c1 = qC1_.DeQue<float>();
        FixpipeParamsV220 fp;
        fp.nSize = nLen;
        fp.mSize = mLen;
        fp.srcStride = mPad;
        fp.dstStride = n_;
        Fixpipe(cGm_[uint64_t(m0) * n_ + n0], c1, fp);
        qC1_.FreeTensor(c1);
    }

    // a[m0 : m0 + mLen, k0 : k0 + kLen] and b[k0 : k0 + kLen, n0 : n0 + nLen] into L1 as NZ:
    // 16-column blocks of mPad (kPad) rows.
    __aicore__ inline void CopyIn(uint32_t m0, uint32_t n0, uint32_t k0, uint32_t mLen, uint32_t nLen, uint32_t kLen,
                                  uint32_t mPad, uint32_t kPad)
    {
        LocalTensor<half> a1 = qA1_.AllocTensor<half>();
        DataCopy(a1, aGm_[uint64_t(m0) * k_ + k0], Nd2NzParams(1, mLen, kLen, 0, k_, mPad, 1, 0));
        qA1_.EnQue(a1);
        LocalTensor<half> b1 = qB1_.AllocTensor<half>();
        DataCopy(b1, bGm_[uint64_t(k0) * n_ + n0], Nd2NzParams(1, kLen, nLen, 0, n_, kPad, 1, 0));
        qB1_.EnQue(b1);
    }

    // bias[n0 : n0 + nLen] -> C1 as one Nd2Nz row (contiguous, zero-padded to 16) -> C2 as float.
    // The burst counts 64 bytes of half: a 16-element tail reads 16 more C1 elements, which stay
    // undefined in the table and are never used (Mmad reads nLen).
    __aicore__ inline void CopyBiasIn(uint32_t n0, uint32_t nLen)
    {
        LocalTensor<half> b1 = qBiasC1_.AllocTensor<half>();
        DataCopy(b1, biasGm_[n0], Nd2NzParams(1, 1, nLen, 0, nLen, 1, 1, 0));
        qBiasC1_.EnQue(b1);
        b1 = qBiasC1_.DeQue<half>();
        LocalTensor<float> b2 = qBiasC2_.AllocTensor<float>();
        const uint16_t bursts = static_cast<uint16_t>((nLen * sizeof(half) + 63) / 64);
        DataCopy(b2, b1, DataCopyParams(1, bursts, 0, 0));
        qBiasC2_.EnQue(b2);
        qBiasC1_.FreeTensor(b1);
    }

    // A1 fractal (k-block j, m-block i) sits at j * mBlocks + i; A2 wants row-major (i, j).
    __aicore__ inline void SplitA(uint32_t mPad, uint32_t kPad)
    {
        LocalTensor<half> a1 = qA1_.DeQue<half>();
        LocalTensor<half> a2 = qA2_.AllocTensor<half>();
        const uint32_t mBlocks = mPad / FRACTAL, kBlocks = kPad / FRACTAL;
        for (uint32_t i = 0; i < mBlocks; ++i) {
            LoadData(a2[i * kBlocks * FRACTAL * FRACTAL], a1, LoadData2DParams(i, kBlocks, mBlocks, 0, 0, false, 0));
        }
        qA2_.EnQue(a2);
        qA1_.FreeTensor(a1);
    }

    // B1 fractal (n-block j, k-block i) sits at j * kBlocks + i, k x n row-major inside; B2 wants
    // (i, j) row-major with each fractal transposed.
    __aicore__ inline void SplitB(uint32_t nPad, uint32_t kPad)
    {
        LocalTensor<half> b1 = qB1_.DeQue<half>();
        LocalTensor<half> b2 = qB2_.AllocTensor<half>();
        const uint32_t nBlocks = nPad / FRACTAL, kBlocks = kPad / FRACTAL;
        for (uint32_t i = 0; i < kBlocks; ++i) {
            LoadData(b2[i * nBlocks * FRACTAL * FRACTAL], b1, LoadData2DParams(i, nBlocks, kBlocks, 0, 0, true, 0));
        }
        qB2_.EnQue(b2);
        qB1_.FreeTensor(b1);
    }

    TPipe pipe_;
    TQue<TPosition::A1, BUFFER_NUM> qA1_;
    TQue<TPosition::B1, BUFFER_NUM> qB1_;
    TQue<TPosition::A2, BUFFER_NUM> qA2_;
    TQue<TPosition::B2, BUFFER_NUM> qB2_;
    TQue<TPosition::CO1, 1> qC1_;
    TQue<TPosition::C1, 1> qBiasC1_;
    TQue<TPosition::C2, 1> qBiasC2_;
    GlobalTensor<half> aGm_, bGm_, biasGm_;
    GlobalTensor<float> cGm_;
    bool hasBias_ = false;
    uint32_t m_ = 0, n_ = 0, k_ = 0, baseM_ = 0, baseN_ = 0, baseK_ = 0, tilesM_ = 0, tilesN_ = 0;
};

extern "C" __global__ __aicore__ void matmul_basic_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    KernelMatmulBasic op;
    op.Init(a, b, bias, c, t);
    op.Process();
}
