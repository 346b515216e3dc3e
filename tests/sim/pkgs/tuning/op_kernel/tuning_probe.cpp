// y[0..2] = what the tiling found (tuning_probe.cpp); x is not read.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void tuning_probe(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t*)y, 8);
    yGm.SetValue(0, t.tiling);
    yGm.SetValue(1, t.bankKey);
    yGm.SetValue(2, t.fields);
}
