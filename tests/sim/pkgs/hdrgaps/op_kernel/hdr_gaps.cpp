// Test kernel: constructs of CANN's device headers that cann-ops kernels rely on. The class
// template is written before any `using namespace AscendC`, as several operators' headers are:
// the CCE builtins get_block_idx()/get_block_num(), the values block_idx/block_num, clz, bcnt1/bcnt0 and,
// inside ASSERT, GetBlockNum() are called unqualified. The queues take a TQueConfig by address (TQue<pos, depth, &conf>), and the
// scalar factor is read with AscendC::ToFloat for every dtype. A namespace of the kernel's own
// calls GetTPipePtr() unqualified: CANN declares it in the global namespace, not in AscendC. The
// kernel class keeps a copy of the kernel entry's TPipe, as ops-nn's pooling kernels do.
#include "kernel_operator.h"

namespace hdrsync {
__aicore__ inline void Mte2ToV()
{
    int32_t id = static_cast<int32_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::MTE2_V));
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(id);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(id);
}
}  // namespace hdrsync

// the kernel's own MAX_DIM_NUM beside op_host's optiling::MAX_DIM_NUM, named unqualified
constexpr uint32_t MAX_DIM_NUM = 8;
static_assert(MAX_DIM_NUM == 8, "the kernel's MAX_DIM_NUM");

constexpr AscendC::TPosition kNoConsumer[8] = {
    AscendC::TPosition::MAX, AscendC::TPosition::MAX, AscendC::TPosition::MAX, AscendC::TPosition::MAX,
    AscendC::TPosition::MAX, AscendC::TPosition::MAX, AscendC::TPosition::MAX, AscendC::TPosition::MAX};
// Positional, as kernels brace-initialise it: nd2nz, nz2nd, scmBlockGroup, bufferLen, bufferNumber.
constexpr AscendC::TQueConfig kOneBuffer = {false, false, false, 0, 1, 0,
    {kNoConsumer[0], kNoConsumer[1], kNoConsumer[2], kNoConsumer[3],
     kNoConsumer[4], kNoConsumer[5], kNoConsumer[6], kNoConsumer[7]}};
constexpr AscendC::TQueConfig kFromHelper = AscendC::GetTQueConfig(false, false, false, 0, 1, 0, kNoConsumer);
static_assert(kFromHelper.bufferNumber == 1 && kFromHelper.consumer[7] == AscendC::TPosition::MAX, "GetTQueConfig");

template <typename T>
class KernelHdrGaps {
    static_assert(AscendC::IsSameType<T, DTYPE_X>::value && !AscendC::IsSameType<T, int8_t>::value, "IsSameType");
    static_assert(AscendC::SupportType<T, float, half, bfloat16_t>() && AscendC::SupportBytes<T, 2, 4>(), "SupportType");

public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR s, GM_ADDR y, uint32_t perBlock, uint32_t buffers)
    {
        ASSERT(GetBlockNum() != 0 && "block dim can not be zero!");
        // CANN's integer helpers: perBlock is a multiple of 8 here, so both forms give it back
        n_ = AscendC::AlignUp(perBlock - 7, 8) + AscendC::DivCeil(0, 8) * AscendC::Ceil(1, 1);
        ASSERT(n_ == perBlock && AscendC::CeilDivision(perBlock, 0) == 0);
        static_assert(AscendC::ConstCeil(9, 8) == 2, "ConstCeil");
        // bisheng's block_idx/block_num values (the 950's index kernels use them unqualified)
        // and its clz builtin
        uint64_t offset = block_idx * uint64_t(perBlock);
        ASSERT(get_block_num() * perBlock > offset && block_num == get_block_num() && get_block_idx() == block_idx);
        ASSERT(clz(1) == 63 && clz(uint64_t(perBlock)) == 63 - 9 && clz(0) == 64);
        ASSERT(bcnt1(0xF0F0) == 8 && bcnt1(uint64_t(perBlock) ^ (uint64_t(perBlock) + 1)) == 1 && bcnt0(~0ull) == 0);
        xGm.SetGlobalBuffer((__gm__ T*)x + offset, perBlock);
        yGm.SetGlobalBuffer((__gm__ T*)y + offset, perBlock);
        sGm.SetGlobalBuffer((__gm__ T*)s, 1);
        scale_ = AscendC::ToFloat(sGm.GetValue(0));
        // TPipe::Init resets the pool (cann-ops PadV3GradReplication calls it before its
        // buffers): the UB a scratch buffer took is handed out again
        AscendC::TBuf<AscendC::TPosition::VECCALC> scratch;
        pipe.InitBuffer(scratch, 190 * 1024);   // with inX and outY after it, past the UB
        pipe.Init();
        pipe.InitBuffer(inX, buffers, perBlock * sizeof(T));   // @initbuffer
        pipe.InitBuffer(outY, 1, perBlock * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<T> x = inX.template AllocTensor<T>();
        AscendC::DataCopy(x, xGm, n_);
        ASSERT(GetTPipePtr() == outer_);
        hdrsync::Mte2ToV();
        inX.EnQue(x);
        x = inX.template DeQue<T>();
        AscendC::LocalTensor<T> y = outY.template AllocTensor<T>();
        AscendC::Muls(y, x, static_cast<T>(scale_), n_);
        inX.FreeTensor(x);
        outY.EnQue(y);
        y = outY.template DeQue<T>();
        AscendC::DataCopy(yGm, y, n_);
        outY.FreeTensor(y);
    }

    // the pipe copied from the kernel's, as ops-nn's pooling kernels keep it (`TPipe pipe_`
    // initialised from a `TPipe&`): the copy allocates from the same pool
    __aicore__ inline explicit KernelHdrGaps(AscendC::TPipe& outer) : pipe(outer), outer_(&outer) {}

private:
    AscendC::TPipe pipe;
    AscendC::TPipe* outer_;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1, &kOneBuffer> inX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1, &kFromHelper> outY;
    AscendC::GlobalTensor<T> xGm, yGm, sGm;
    uint32_t n_ = 0;
    float scale_ = 0;
};

extern "C" __global__ __aicore__ void hdr_gaps(GM_ADDR x, GM_ADDR s, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    AscendC::TPipe pipe;
    KernelHdrGaps<DTYPE_X> op(pipe);
    op.Init(x, s, y, t.perBlock, t.buffers);
    op.Process();
}
