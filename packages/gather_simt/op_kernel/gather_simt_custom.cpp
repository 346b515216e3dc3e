// y = x[indices] as a SIMT function: the vector kernel launches THREADS threads per block with
// asc_vf_call, and each thread walks the indices with a grid-wide stride (ops-nn's arch35
// gather kernels use the same loop).
#include "kernel_operator.h"
#include "simt_api/asc_simt.h"

constexpr uint32_t THREADS = 1024;

template <typename T>
__simt_vf__ __aicore__ LAUNCH_BOUND(THREADS) inline void GatherCompute(__gm__ T* x, __gm__ int32_t* indices,
                                                                       __gm__ volatile T* y, uint32_t n)
{
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        y[i] = x[indices[i]];
    }
}

extern "C" __global__ __aicore__ void gather_simt_custom(GM_ADDR x, GM_ADDR indices, GM_ADDR y, GM_ADDR workspace,
                                                         GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    asc_vf_call<GatherCompute<DTYPE_X>>(dim3(THREADS), (__gm__ DTYPE_X*)x, (__gm__ int32_t*)indices,
                                        (__gm__ volatile DTYPE_X*)y, t.n);
}
