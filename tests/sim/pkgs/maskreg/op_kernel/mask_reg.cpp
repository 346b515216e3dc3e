#include "kernel_operator.h"
using namespace AscendC;

using T = DTYPE_X;

// Basic APIs as template arguments of CANN's exact function types, as cann-ops' foreach
// templates take them (ForeachImplictOutput<T, T, Exp>, ...).
template <class U> using UnaryOp = void (const LocalTensor<U>&, const LocalTensor<U>&, const int32_t&);
template <class U> using BinaryOp = void (const LocalTensor<U>&, const LocalTensor<U>&, const LocalTensor<U>&, const int32_t&);
template <class U> using ScalarOp = void (const LocalTensor<U>&, const LocalTensor<U>&, const U&, const int32_t&);
template <class U> using Level0Op = void (const LocalTensor<U>&, const LocalTensor<U>&, const LocalTensor<U>&, uint64_t,
                                          const uint8_t, const BinaryRepeatParams&);
template <class U, UnaryOp<U>* op> void RunUnary(const LocalTensor<U>& d, const LocalTensor<U>& s, int32_t n) { op(d, s, n); }
template <class U, BinaryOp<U>* op> void RunBinary(const LocalTensor<U>& d, const LocalTensor<U>& a, const LocalTensor<U>& b,
                                                   int32_t n) { op(d, a, b, n); }
template <class U, ScalarOp<U>* op> void RunScalar(const LocalTensor<U>& d, const LocalTensor<U>& s, U v, int32_t n) { op(d, s, v, n); }
template <class U, Level0Op<U>* op> void RunLevel0(const LocalTensor<U>& d, const LocalTensor<U>& a, const LocalTensor<U>& b,
                                                   int32_t n) {
    op(d, a, b, (uint64_t)(256 / sizeof(U)), (uint8_t)(n * sizeof(U) / 256), {1, 1, 1, 8, 8, 8});
}

extern "C" __global__ __aicore__ void mask_reg(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inX, inY;
    TQue<QuePosition::VECOUT, 1> outZ;
    GlobalTensor<T> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ T*)x, t.padded);
    yGm.SetGlobalBuffer((__gm__ T*)y, t.padded);
    zGm.SetGlobalBuffer((__gm__ T*)z, t.padded);
    pipe.InitBuffer(inX, 1, t.padded * sizeof(T));
    pipe.InitBuffer(inY, 1, t.padded * sizeof(T));
    pipe.InitBuffer(outZ, 1, t.padded * sizeof(T));
    TBuf<TPosition::VECCALC> other;
    pipe.InitBuffer(other, t.padded * sizeof(T));
    LocalTensor<T> xl = inX.AllocTensor<T>();
    LocalTensor<T> yl = inY.AllocTensor<T>();
    DataCopy(xl, xGm, t.padded);
    DataCopy(yl, yGm, t.padded);
    inX.EnQue(xl);
    inY.EnQue(yl);
    xl = inX.DeQue<T>();
    yl = inY.DeQue<T>();
    LocalTensor<T> zl = outZ.AllocTensor<T>();
    Duplicate(zl, (T)0, t.padded);
    const int32_t n = t.count;
    const int32_t perRepeat = 256 / sizeof(T);
    bool atomicStore = false;
    if (TILING_KEY_IS(1)) {
        // Counter mode: n elements, the repeat count follows from n (the 1 passed is not used).
        SetMaskCount();
        SetVectorMask<T, MaskMode::COUNTER>(0, n);
        Add<T, false>(zl, xl, yl, MASK_PLACEHOLDER, 1, {1, 1, 1, 8, 8, 8});
        SetMaskNorm();
        ResetMask();
    } else if (TILING_KEY_IS(2)) {
        // Normal mode, a bit pattern set once for several calls: every other lane.
        SetVectorMask<T>(sizeof(T) == 2 ? 0x5555555555555555ull : 0ull, 0x5555555555555555ull);
        UnaryRepeatParams p;
        Abs<T, false>(zl, xl, MASK_PLACEHOLDER, (uint8_t)(n / perRepeat), p);
        Adds<T, false>(zl, zl, (T)1, MASK_PLACEHOLDER, (uint8_t)(n / perRepeat), p);
        ResetMask();
    } else if (TILING_KEY_IS(3) || TILING_KEY_IS(4)) {
        // As cann-ops' isamax/isamin: one counter-mode vcmax/vcmin, then its register.
        LocalTensor<T> tmp = other.Get<T>();
        SetMaskCount();
        SetVectorMask<T, MaskMode::COUNTER>(0, n);
        if (TILING_KEY_IS(3)) {
            WholeReduceMax<T, false>(tmp, xl, MASK_PLACEHOLDER, 1, 1, 1, 8);
        } else {
            WholeReduceMin<T, false>(tmp, xl, MASK_PLACEHOLDER, 1, 1, 1, 8);
        }
        SetMaskNorm();
        ResetMask();
        T val = 0, idx = 0;
        GetReduceMaxMinCount<T>(val, idx);
        zl.SetValue(0, val);
        zl.SetValue(1, idx);
    } else if (TILING_KEY_IS(5) || TILING_KEY_IS(6)) {
        // Atomic max / min stores of x onto z's initial contents.
        Adds(zl, xl, (T)0, t.padded);
        if (TILING_KEY_IS(5)) {
            SetAtomicMax<T>();
        } else {
            SetAtomicMin<T>();
        }
        atomicStore = true;
    } else if (TILING_KEY_IS(7) || TILING_KEY_IS(8)) {
        // The store atomic configuration read back: 10 * AtomicDtype + op, stored atomically.
        if (TILING_KEY_IS(7)) {
            SetStoreAtomicConfig<sizeof(T) == 2 ? AtomicDtype::ATOMIC_F16 : AtomicDtype::ATOMIC_F32, AtomicOp::ATOMIC_SUM>();
        } else {
            SetAtomicMax<T>();
        }
        uint16_t type = 0, op = 0;
        GetStoreAtomicConfig(type, op);
        Duplicate(zl, (T)(type * 10 + op), t.padded);
        atomicStore = true;
    } else if (TILING_KEY_IS(19)) {
        // SetAtomicType changes the data type of the atomic add already set.
        Adds(zl, xl, (T)0, t.padded);
        SetAtomicAdd<int32_t>();
        SetAtomicType<T>();
        atomicStore = true;
    } else if (TILING_KEY_IS(11)) {
        // Counter-mode Compare (as max_pool3d_with_argmax_v2): one bit per element of n.
        LocalTensor<uint8_t> bits = zl.template ReinterpretCast<uint8_t>();
        SetMaskCount();
        SetVectorMask<T, MaskMode::COUNTER>(n);
        Compare<T, uint8_t, false>(bits, xl, yl, CMPMODE::GT, MASK_PLACEHOLDER, 1, {1, 1, 1, 8, 8, 8});
        SetMaskNorm();
        ResetMask();
    } else if (TILING_KEY_IS(12)) {
        // Counter-mode Copy (as dequant_swiglu_quant).
        SetMaskCount();
        SetVectorMask<T, MaskMode::COUNTER>(0, n);
        Copy<T, false>(zl, xl, MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
        SetMaskNorm();
        ResetMask();
    } else if (TILING_KEY_IS(14)) {
        RunUnary<T, Exp>(zl, xl, n);
    } else if (TILING_KEY_IS(15)) {
        RunBinary<T, Div>(zl, xl, yl, n);
    } else if (TILING_KEY_IS(16)) {
        RunScalar<T, Adds>(zl, xl, (T)2, n);
    } else if (TILING_KEY_IS(17)) {
        RunLevel0<T, Sub>(zl, xl, yl, n);
    } else if (TILING_KEY_IS(18)) {
        RunUnary<T, Abs>(zl, xl, n + 1);  // @pointer-past-end (a function pointer names the last checked call)
    } else if (TILING_KEY_IS(20)) {
        // CANN's kernel type traits: 1 where T is float, 2 where half.
        static_assert(SupportType<T, half, float>() && !SupportType<T, int8_t, int32_t>(), "T is half or float");
        Duplicate(zl, (T)(IsSameType<T, float>::value ? 1 : IsSameType<T, half>::value ? 2 : 0), n);
    } else if (TILING_KEY_IS(21) || TILING_KEY_IS(22)) {
        // TransDataTo5HD: x as count/(16 * perBlock) matrices of 16 rows x perBlock, one a repeat
        // (512 bytes on from the last); dst lists consecutive blocks. 21: tensor lists, 22: addresses.
        const int32_t perBlock = 32 / sizeof(T);
        TransDataTo5HDParams params(false, false, (uint8_t)(n / (16 * perBlock)), 16, 16);
        if (TILING_KEY_IS(21)) {
            LocalTensor<T> dstList[NCHW_CONV_ADDR_LIST_SIZE];
            LocalTensor<T> srcList[NCHW_CONV_ADDR_LIST_SIZE];
            for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
                dstList[i] = zl[i * perBlock];
                srcList[i] = xl[i * perBlock];
            }
            TransDataTo5HD<T>(dstList, srcList, params);
        } else {
            uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE];
            uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE];
            for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
                dstList[i] = (uint64_t)zl[i * perBlock].GetPhyAddr();
                srcList[i] = (uint64_t)xl[i * perBlock].GetPhyAddr();
            }
            TransDataTo5HD<T>(dstList, srcList, params);
        }
    } else if (TILING_KEY_IS(32)) {
        // The same through CANN's impl layer, as cann-ops GeGluGradV2 calls it: lists of
        // `__ubuf__ T*` UB addresses (GetPhyAddr), after an event id of TPipe's own type.
        TEventID id = pipe.AllocEventID<HardEvent::MTE2_V>();
        SetFlag<HardEvent::MTE2_V>(id);
        WaitFlag<HardEvent::MTE2_V>(id);
        pipe.ReleaseEventID<HardEvent::MTE2_V>(id);
        const int32_t perBlock = 32 / sizeof(T);
        TransDataTo5HDParams params(false, false, (uint8_t)(n / (16 * perBlock)), 16, 16);
        __ubuf__ T* dstList[NCHW_CONV_ADDR_LIST_SIZE];
        __ubuf__ T* srcList[NCHW_CONV_ADDR_LIST_SIZE];
        for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
            dstList[i] = (__ubuf__ T*)zl[i * perBlock].GetPhyAddr();
            srcList[i] = (__ubuf__ T*)xl[i * perBlock].GetPhyAddr();
        }
        TransDataTo5HDImpl(dstList, srcList, params);
    } else if (TILING_KEY_IS(33)) {
        // Rows 8-15 of the source never written (as a kernel transposing a whole 16-row tile of
        // which it loaded 8): only their lanes of the result are undefined. z gets the defined
        // lanes, element i of each column j: x[i * perBlock + j].
        const int32_t perBlock = 32 / sizeof(T);
        LocalTensor<T> tmp = other.Get<T>();
        uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE];
        uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE];
        for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
            dstList[i] = (uint64_t)tmp[i * perBlock].GetPhyAddr();
            srcList[i] = i < 8 ? (uint64_t)xl[i * perBlock].GetPhyAddr() : (uint64_t)tmp[(8 + i) * perBlock].GetPhyAddr();
        }
        TransDataTo5HD<T>(dstList, srcList, TransDataTo5HDParams(false, false, 1, 0, 0));
        for (int j = 0; j < perBlock; ++j) {
            for (int i = 0; i < 8; ++i) zl.SetValue(j * 8 + i, tmp.GetValue(j * 16 + i));
        }
    } else if (TILING_KEY_IS(23)) {
        uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE];
        uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE];
        for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
            dstList[i] = (uint64_t)zl[i * 32 / sizeof(T)].GetPhyAddr() + 2;
            srcList[i] = (uint64_t)xl[i * 32 / sizeof(T)].GetPhyAddr();
        }
        TransDataTo5HD<T>(dstList, srcList, TransDataTo5HDParams());  // @unaligned-5hd
    } else if (TILING_KEY_IS(24)) {
        // The scalar unit's bit functions, ScalarCast and system registers, one result a slot.
        int64_t r[20] = {ScalarGetCountOfValue<1>(0xF0F0ull), ScalarGetCountOfValue<0>(0xFFFFFFFFFFFFFFF0ull),
                         ScalarCountLeadingZero(1ull), CountBitsCntSameAsSignBit(1), CountBitsCntSameAsSignBit(-1),
                         ScalarGetSFFValue<1>(0x50ull), ScalarGetSFFValue<0>(0xFFull), ScalarGetSFFValue<1>(0ull),
                         ScalarCast<float, int32_t, RoundMode::CAST_ROUND>(2.5f),
                         ScalarCast<float, int32_t, RoundMode::CAST_FLOOR>(-2.5f),
                         ScalarCast<float, int32_t, RoundMode::CAST_RINT>(2.5f),
                         ScalarCast<float, int32_t, RoundMode::CAST_CEIL>(2.1f), 0, 0, 0,
                         GetSubBlockIdx(), GetTaskRation(), GetSubBlockNum(), 0, 0};
        const half odd = ScalarCast<float, half, RoundMode::CAST_ODD>(1.0f + 1.0f / 4096);
        r[12] = (int64_t)((float)odd * 1024) - 1024;   // 1 + 2^-10 -> 1
        const int64_t c0 = GetSystemCycle();
        const int64_t c1 = GetSystemCycle();
        r[13] = c1 >= c0;
        uint32_t arch = 0;
        GetArchVersion(arch);
        r[14] = arch != 0;
        ICachePreLoad(2);
        r[18] = GetICachePreloadStatus();
        GlobalTensor<uint64_t> cacheGm;
        cacheGm.SetGlobalBuffer((__gm__ uint64_t*)x);
        DataCachePreload(cacheGm, (int64_t)0);
        CheckLocalMemoryIA(CheckLocalMemoryIAParam());
        PrintTimeStamp(7);
        PRINTF("arch known %d\n", (int)(arch != 0));
        r[19] = GetProgramCounter() >= 0;
        for (int i = 0; i < 20; ++i) zl.SetValue(i, (T)(float)r[i]);
    } else if (TILING_KEY_IS(25)) {
        Trap();  // @trap
    } else if (TILING_KEY_IS(26)) {
        InitOutput(zGm, (uint32_t)n, (T)3);
        outZ.FreeTensor(zl);
        inX.FreeTensor(xl);
        inY.FreeTensor(yl);
        return;
    } else if (TILING_KEY_IS(27)) {
        AddRelu(zl, xl, yl, n);
    } else if (TILING_KEY_IS(28)) {
        SubRelu(zl, xl, yl, (uint64_t)perRepeat, (uint8_t)(n / perRepeat), {1, 1, 1, 8, 8, 8});
    } else if (TILING_KEY_IS(29) || TILING_KEY_IS(30)) {
        Adds(zl, xl, (T)0.5f, n);   // dst = x + 0.5, then dst = x * dst + y
        if (TILING_KEY_IS(29)) {
            FusedMulAdd(zl, xl, yl, n);
        } else {
            FusedMulAddRelu(zl, xl, yl, n);
        }
    } else if (TILING_KEY_IS(31)) {
        CreateVecIndex(zl, (T)-3, (uint32_t)n);
    } else if (TILING_KEY_IS(9)) {
        SetMaskCount();
        SetVectorMask<T, MaskMode::COUNTER>(0, n);
        Add(zl, xl, yl, (uint64_t)perRepeat, 1, {1, 1, 1, 8, 8, 8});  // @set-mask-in-counter
    } else if (TILING_KEY_IS(10)) {
        T val = 0, idx = 0;
        GetReduceMaxMinCount<T>(val, idx);  // @no-reduce
    } else if (TILING_KEY_IS(13)) {
        SetVectorMask<T, MaskMode::COUNTER>(0, n);  // @counter-without-mode
    }
    outZ.EnQue(zl);
    zl = outZ.DeQue<T>();
    DataCopy(zGm, zl, t.padded);
    if (atomicStore) SetAtomicNone();
    outZ.FreeTensor(zl);
    inX.FreeTensor(xl);
    inY.FreeTensor(yl);
}
