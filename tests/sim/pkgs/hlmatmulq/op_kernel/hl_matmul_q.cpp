// c = (a x b) dequantised to half by the high-level Matmul (see op_host/hl_matmul_q.cpp).
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

using AT = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
using BT = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
using CT = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using BiasT = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;

extern "C" __global__ __aicore__ void hl_matmul_q(GM_ADDR a, GM_ADDR b, GM_ADDR q, GM_ADDR c, GM_ADDR workspace,
                                                  GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    if (GetBlockIdx() != 0) {
        return;
    }
    TPipe pipe;
    Matmul<AT, BT, CT, BiasT> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t.cube);
    GlobalTensor<int8_t> aGm, bGm;
    GlobalTensor<uint64_t> qGm;
    GlobalTensor<half> cGm;
    aGm.SetGlobalBuffer((__gm__ int8_t*)a);
    bGm.SetGlobalBuffer((__gm__ int8_t*)b);
    qGm.SetGlobalBuffer((__gm__ uint64_t*)q, t.cube.N);
    cGm.SetGlobalBuffer((__gm__ half*)c);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    if (TILING_KEY_IS(1)) {
        mm.SetQuantScalar(qGm.GetValue(0));   // one scale for C: q's first value
    } else if (TILING_KEY_IS(2)) {
        mm.SetQuantVector(qGm);
    }
    mm.IterateAll(cGm);  // @iterate
    mm.End();
}
