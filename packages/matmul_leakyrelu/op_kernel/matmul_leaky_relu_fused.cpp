// MatmulLeakyReluFused: c = leaky_relu(a x b + bias), a mixed kernel (KERNEL_TYPE_MIX_AIC_1_2).
// Each AIV core owns one singleCoreM x singleCoreN share of c: its Matmul object is the client
// of the AI core's cube (the server), which computes the share one baseM x baseN block per
// Iterate; GetTensorC brings the block into UB (rows of baseN floats), LeakyRelu runs on the
// vector unit and DataCopyPad stores the block's exact rows at its place in c.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using CType = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

constexpr int32_t BUFFER_NUM = 2;

__aicore__ inline int32_t MinI(int32_t a, int32_t b) { return a < b ? a : b; }

class KernelMatmulLeakyRelu {
public:
    // false: this AIV core has no share (more cores than shares)
    __aicore__ inline bool Init(TPipe* pipe, GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, const TCubeTiling& t,
                                float slope)
    {
        t_ = &t;
        slope_ = slope;
        const int32_t mShares = (t.M + t.singleCoreM - 1) / t.singleCoreM;
        const int32_t nShares = (t.N + t.singleCoreN - 1) / t.singleCoreN;
        const int32_t idx = GetBlockIdx();
        if (idx >= mShares * nShares) {
            return false;
        }
        const int32_t mi = idx % mShares, ni = idx / mShares;
        shareM_ = MinI(t.singleCoreM, t.M - mi * t.singleCoreM);
        shareN_ = MinI(t.singleCoreN, t.N - ni * t.singleCoreN);
        aGm_.SetGlobalBuffer((__gm__ half*)a + int64_t(mi) * t.singleCoreM * t.Ka);
        bGm_.SetGlobalBuffer((__gm__ half*)b + int64_t(ni) * t.singleCoreN);
        biasGm_.SetGlobalBuffer((__gm__ float*)bias + int64_t(ni) * t.singleCoreN);
        cGm_.SetGlobalBuffer((__gm__ float*)c + int64_t(mi) * t.singleCoreM * t.N + int64_t(ni) * t.singleCoreN);
        pipe->InitBuffer(inQ_, BUFFER_NUM, t.baseM * t.baseN * sizeof(float));
        pipe->InitBuffer(outQ_, BUFFER_NUM, t.baseM * t.baseN * sizeof(float));
        return true;
    }

    template <class MM>
    __aicore__ inline void Process(MM& mm)
    {
        mm.SetTail(shareM_, shareN_);
        mm.SetTensorA(aGm_);
        mm.SetTensorB(bGm_);
        mm.SetBias(biasGm_);
        // the cube hands out blocks M-inner (iterateOrder 0) or N-inner
        const int32_t mBlocks = (shareM_ + t_->baseM - 1) / t_->baseM;
        const int32_t nBlocks = (shareN_ + t_->baseN - 1) / t_->baseN;
        int32_t count = 0;
        while (mm.Iterate()) {
            const int32_t bm = t_->iterateOrder == 0 ? count % mBlocks : count / nBlocks;
            const int32_t bn = t_->iterateOrder == 0 ? count / mBlocks : count % nBlocks;
            LocalTensor<float> in = inQ_.AllocTensor<float>();
            mm.GetTensorC(in);
            inQ_.EnQue(in);
            Compute(MinI(t_->baseM, shareM_ - bm * t_->baseM));
            CopyOut(bm, bn);
            ++count;
        }
    }

private:
    __aicore__ inline void Compute(int32_t rows)
    {
        LocalTensor<float> in = inQ_.DeQue<float>();
        LocalTensor<float> out = outQ_.AllocTensor<float>();
        LeakyRelu(out, in, slope_, rows * t_->baseN);
        outQ_.EnQue(out);
        inQ_.FreeTensor(in);
    }

    // the block's rows x cols elements, UB rows baseN floats apart, GM rows N apart
    __aicore__ inline void CopyOut(int32_t bm, int32_t bn)
    {
        const int32_t rows = MinI(t_->baseM, shareM_ - bm * t_->baseM);
        const int32_t cols = MinI(t_->baseN, shareN_ - bn * t_->baseN);
        LocalTensor<float> out = outQ_.DeQue<float>();
        const uint32_t rowBytes = cols * sizeof(float);
        DataCopyExtParams p(static_cast<uint16_t>(rows), rowBytes,
                            (t_->baseN * sizeof(float) - (rowBytes + 31) / 32 * 32) / 32,
                            (t_->N - cols) * sizeof(float), 0);
        DataCopyPad(cGm_[int64_t(bm) * t_->baseM * t_->N + int64_t(bn) * t_->baseN], out, p);
        outQ_.FreeTensor(out);
    }

    TQue<TPosition::VECIN, BUFFER_NUM> inQ_;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ_;
    GlobalTensor<half> aGm_, bGm_;
    GlobalTensor<float> biasGm_, cGm_;
    const TCubeTiling* t_ = nullptr;
    float slope_ = 0.0f;
    int32_t shareM_ = 0, shareN_ = 0;
};

extern "C" __global__ __aicore__ void matmul_leaky_relu_fused(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                              GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(t, tiling);
    TPipe pipe;
    Matmul<AType, BType, CType, BiasType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t.cube);
    KernelMatmulLeakyRelu op;
    if (op.Init(&pipe, a, b, bias, c, t.cube, t.negativeSlope)) {
        op.Process(mm);
    }
    // every client ends its Matmul, with a share or without: the cube serves until both have
    mm.End();
}
