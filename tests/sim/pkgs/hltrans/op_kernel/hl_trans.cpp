#include "kernel_operator.h"
using namespace AscendC;

using T = DTYPE_X;
constexpr uint32_t N = 4096;

extern "C" __global__ __aicore__ void hl_trans(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, zBuf, tmpBuf;
    GlobalTensor<T> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ T*)x, N);
    zGm.SetGlobalBuffer((__gm__ T*)z, N);
    pipe.InitBuffer(xBuf, N * sizeof(T));
    pipe.InitBuffer(zBuf, N * sizeof(T));
    pipe.InitBuffer(tmpBuf, t.tmpBytes);
    LocalTensor<T> xl = xBuf.Get<T>(), zl = zBuf.Get<T>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    DataCopy(xl, xGm, N);
    Duplicate(zl, (T)0, N);
    if (TILING_KEY_IS(7)) {
        ConfusionTranspose(zl, xl, TransposeType::TRANSPOSE_ND2ND_ONLY, t.ct);
    } else {
        TransposeType types[] = {TransposeType::TRANSPOSE_TYPE_NONE, TransposeType::TRANSPOSE_NZ2ND_0213,
                                 TransposeType::TRANSPOSE_NZ2NZ_0213, TransposeType::TRANSPOSE_NZ2NZ_012_WITH_N,
                                 TransposeType::TRANSPOSE_NZ2ND_012_WITH_N, TransposeType::TRANSPOSE_NZ2ND_012_WITHOUT_N,
                                 TransposeType::TRANSPOSE_NZ2NZ_012_WITHOUT_N};
        uint32_t key = 1;
        for (uint32_t k = 1; k <= 6; ++k) {
            if (TILING_KEY_IS(k)) key = k;
        }
        ConfusionTranspose(zl, xl, tmp, types[key], t.ct);  // @transpose
    }
    DataCopy(zGm, zl, N);
}
