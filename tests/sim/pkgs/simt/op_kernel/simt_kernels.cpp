// SIMT functions launched from a vector kernel as ops-nn's arch35 kernels do
// (asc_vf_call<f>(dim3(n), ...)), one per tiling key:
//   1 gather        y[i] = x[idx[i]], grid-stride over every block's threads
//   2 scatter-add   y = 0; barrier; y[idx[i]] += x[i] with asc_atomic_add (one block)
//   3 block sums    y[b] = sum of block b's chunk of x: per-thread partials, then a tree in UB
//                   (shared memory) with asc_syncthreads() between the steps
//   4 block sums with the barrier inside the tree missing: a data race
//   5 divergent barrier: odd threads return before asc_syncthreads()
//   6 histogram with a plain += instead of the atomic: a data race in GM
//   7 every block's thread 0 stores its block index to y[0]: blocks race for it
//   9/10 the 950's Sort with a SortConfig over x (ascending / descending): y holds the sorted
//     values, then the bits of their uint32 source positions (vector code beside the SIMT kernels)
//   11 y[i] = i / idx[0] through GetUintDivMagicAndShift and Simt::UintDiv (ops-nn's index kernels
//      divide so)
//   12 the hardware SyncAll (the 950 has it), then each block's thread 0 stores its block index
//   13 scatter  y[idx[i]] = x[i] with plain stores (ops-nn's scatter_update): threads storing to one
//      element race unless they store the same value
//   14 the built-ins as values: each thread copies blockDim (a dim3) and its threadIdx.x, waits
//      at asc_syncthreads() while the others run, then stores y[b * blockDim.x + t] =
//      t * 1000 + blockDim.x + gridDim.x, or -1 when its threadIdx.x changed meanwhile
//   15 y[i] = Simt::Cast<int32_t, float, CAST_RINT, SAT>(x[i]) (ops-nn's unsorted_segment_sum
//      quantises so), stored back as float
//   8 rotate y left in place without a barrier: thread t reads y[t], then writes y[t - 1], which
//     thread t - 1 read (a read before the buffer's first store of the epoch, then a write)
#include "kernel_operator.h"
#include "simt_api/asc_simt.h"
#include "simt_api/device_atomic_functions.h"
#include "simt_api/device_sync_functions.h"
using namespace AscendC;

constexpr uint32_t THREADS = 256;
constexpr SortConfig DESCENDING{SortType::RADIX_SORT, true};

__simt_vf__ __aicore__ LAUNCH_BOUND(1024) inline void GatherSimt(__gm__ float* x, __gm__ int32_t* idx,
                                                                 __gm__ volatile float* y, uint32_t n)
{
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        y[i] = x[idx[i]];   // @gather
    }
}

__simt_vf__ __aicore__ LAUNCH_BOUND(1024) inline void ScatterAddSimt(__gm__ float* x, __gm__ int32_t* idx,
                                                                     __gm__ float* y, uint32_t n, uint32_t ylen)
{
    for (uint32_t i = threadIdx.x; i < ylen; i += blockDim.x) {
        y[i] = 0.0f;
    }
    asc_syncthreads();
    for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) {
        asc_atomic_add(&y[idx[i]], x[i]);
    }
}

template <bool BARRIER>
__simt_vf__ __aicore__ LAUNCH_BOUND(THREADS) inline void BlockSumSimt(__gm__ float* x, __gm__ float* y,
                                                                      __ubuf__ float* shared, uint32_t m)
{
    const uint32_t chunk = (m + gridDim.x - 1) / gridDim.x;
    const uint32_t begin = blockIdx.x * chunk;
    const uint32_t end = begin + chunk < m ? begin + chunk : m;
    float acc = 0.0f;
    for (uint32_t i = begin + threadIdx.x; i < end; i += blockDim.x) {
        acc += x[i];
    }
    shared[threadIdx.x] = acc;
    asc_syncthreads();
    for (uint32_t s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) {
            shared[threadIdx.x] += shared[threadIdx.x + s];   // @tree
        }
        if constexpr (BARRIER) {
            asc_syncthreads();
        }
    }
    if (threadIdx.x == 0) {
        y[blockIdx.x] = shared[0];
    }
}

__simt_vf__ __aicore__ LAUNCH_BOUND(THREADS) inline void DivergentSimt(__gm__ float* y)
{
    if (threadIdx.x % 2 == 1) {
        return;
    }
    asc_syncthreads();   // @divergent
    y[threadIdx.x] = 1.0f;
}

__simt_vf__ __aicore__ LAUNCH_BOUND(THREADS) inline void HistogramRacySimt(__gm__ int32_t* idx, __gm__ float* y,
                                                                           uint32_t n, uint32_t ylen)
{
    for (uint32_t i = threadIdx.x; i < ylen; i += blockDim.x) {
        y[i] = 0.0f;
    }
    asc_syncthreads();
    for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) {
        y[idx[i]] += 1.0f;   // @histogram
    }
}

__simt_vf__ __aicore__ LAUNCH_BOUND(THREADS) inline void BlocksRaceSimt(__gm__ float* y)
{
    if (threadIdx.x == 0) {
        y[0] = static_cast<float>(blockIdx.x);
    }
}

__simt_vf__ __aicore__ LAUNCH_BOUND(THREADS) inline void RotateRacySimt(__gm__ float* y, uint32_t ylen)
{
    const uint32_t t = threadIdx.x;
    if (t < ylen) {
        const float v = y[t];
        y[(t + ylen - 1) % ylen] = v;   // @rotate
    }
}

__simt_vf__ __aicore__ LAUNCH_BOUND(THREADS) inline void MagicDivSimt(__gm__ float* y, uint32_t ylen, uint32_t magic,
                                                                     uint32_t shift)
{
    for (uint32_t i = threadIdx.x; i < ylen; i += blockDim.x) {
        y[i] = static_cast<float>(Simt::UintDiv(i, magic, shift));
    }
}

__simt_vf__ __aicore__ LAUNCH_BOUND(THREADS) inline void ScatterSimt(__gm__ float* x, __gm__ int32_t* idx,
                                                                     __gm__ float* y, uint32_t n)
{
    for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) {
        y[idx[i]] = x[i];   // @scatter
    }
}

__simt_vf__ __aicore__ LAUNCH_BOUND(THREADS) inline void BlockIndexSimt(__gm__ float* y)
{
    if (threadIdx.x == 0) {
        y[blockIdx.x] = static_cast<float>(blockIdx.x);
    }
}

__simt_vf__ __aicore__ LAUNCH_BOUND(THREADS) inline void BuiltinsSimt(__gm__ float* y)
{
    const dim3 d = blockDim;
    const uint32_t before = threadIdx.x;
    asc_syncthreads();
    const uint32_t t = threadIdx.x;
    y[blockIdx.x * d.x + t] = t == before ? static_cast<float>(t * 1000 + d.x + gridDim.x) : -1.0f;
}

__simt_vf__ __aicore__ LAUNCH_BOUND(THREADS) inline void CastSimt(__gm__ float* x, __gm__ float* y, uint32_t n)
{
    for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) {
        y[i] = static_cast<float>(Simt::Cast<int32_t, float, RoundMode::CAST_RINT, Simt::SatMode::SAT>(x[i]));
    }
}

extern "C" __global__ __aicore__ void simt_kernels(GM_ADDR x, GM_ADDR idx, GM_ADDR y, GM_ADDR workspace,
                                                   GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    __gm__ float* xs = (__gm__ float*)x;
    __gm__ int32_t* is = (__gm__ int32_t*)idx;
    __gm__ float* ys = (__gm__ float*)y;
    if (TILING_KEY_IS(1)) {
        asc_vf_call<GatherSimt>(dim3(THREADS), xs, is, (__gm__ volatile float*)ys, t.n);
    } else if (TILING_KEY_IS(2)) {
        asc_vf_call<ScatterAddSimt>(dim3(THREADS), xs, is, ys, t.n, t.ylen);
    } else if (TILING_KEY_IS(3) || TILING_KEY_IS(4)) {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, THREADS * sizeof(float));
        __ubuf__ float* shared = (__ubuf__ float*)buf.Get<float>().GetPhyAddr();
        DataSyncBarrier<MemDsbT::UB>();   // the scalar unit's UB stores land before the launch (ops-nn's gather_elements)
        if (TILING_KEY_IS(3)) {
            asc_vf_call<BlockSumSimt<true>>(dim3(THREADS), xs, ys, shared, t.m);
        } else {
            asc_vf_call<BlockSumSimt<false>>(dim3(THREADS), xs, ys, shared, t.m);
        }
    } else if (TILING_KEY_IS(5)) {
        asc_vf_call<DivergentSimt>(dim3(THREADS), ys);
    } else if (TILING_KEY_IS(6)) {
        asc_vf_call<HistogramRacySimt>(dim3(THREADS), is, ys, t.n, t.ylen);
    } else if (TILING_KEY_IS(7)) {
        asc_vf_call<BlocksRaceSimt>(dim3(THREADS), ys);   // @blocks
    } else if (TILING_KEY_IS(9) || TILING_KEY_IS(10)) {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 3 * t.m * sizeof(float));
        LocalTensor<float> src = buf.Get<float>();
        LocalTensor<float> dst = src[t.m];
        LocalTensor<uint32_t> pos = src[2 * t.m].ReinterpretCast<uint32_t>();
        GlobalTensor<float> xg, yg;
        xg.SetGlobalBuffer(xs);
        yg.SetGlobalBuffer(ys);
        DataCopy(src, xg, t.m);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        if (TILING_KEY_IS(9)) {
            Sort<float, false>(dst, pos, src, t.m);
        } else {
            Sort<float, false, DESCENDING>(dst, pos, src, t.m);
        }
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(yg, dst, t.m);
        DataCopy(yg[t.m], pos.ReinterpretCast<float>(), t.m);   // the positions' bits
    } else if (TILING_KEY_IS(11)) {
        uint32_t magic = 0, shift = 0;
        GetUintDivMagicAndShift(magic, shift, static_cast<uint32_t>(is[0]));
        asc_vf_call<MagicDivSimt>(dim3(THREADS), ys, t.ylen, magic, shift);
    } else if (TILING_KEY_IS(12)) {
        SyncAll();
        asc_vf_call<BlockIndexSimt>(dim3(THREADS), ys);
    } else if (TILING_KEY_IS(13)) {
        asc_vf_call<ScatterSimt>(dim3(THREADS), xs, is, ys, t.n);
    } else if (TILING_KEY_IS(14)) {
        asc_vf_call<BuiltinsSimt>(dim3(THREADS), ys);
    } else if (TILING_KEY_IS(15)) {
        asc_vf_call<CastSimt>(dim3(THREADS), xs, ys, t.n);
    } else if (TILING_KEY_IS(8)) {
        asc_vf_call<RotateRacySimt>(dim3(THREADS), ys, t.ylen);
    }
}
