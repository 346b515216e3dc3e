#include "kernel_operator.h"
#include "kernel_utils.h"   // included on its own, as cann-ops coalesce_sparse.h does
#include "impl/dav_c220/kernel_operator_reg_others_impl.h"   // as cann-ops ctc_loss_v3_grad.h
#include "host_api_kernel.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void host_api(GM_ADDR x, GM_ADDR n, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GlobalTensor<int64_t> out;
    out.SetGlobalBuffer((__gm__ int64_t*)y, 18);
    out.SetValue(0, t.coreNum);
    out.SetValue(1, t.ascendcCoreNum);
    out.SetValue(2, (int64_t)t.ubSize);
    out.SetValue(3, t.vectorCoreCnt);
    out.SetValue(4, t.primaryFormat);
    out.SetValue(5, t.subFormat);
    out.SetValue(6, t.nValue);
    out.SetValue(7, t.printed);
    out.SetValue(8, t.copyStatus);
    out.SetValue(9, t.logLevels);
    int64_t label = 0;
    for (int i = 0; i < 8; ++i) label |= (int64_t)t.label[i] << (8 * i);
    out.SetValue(10, label);
    out.SetValue(11, t.parsedCoreNum);
    out.SetValue(12, t.opNameLen);
    out.SetValue(13, t.modNameLen);
    out.SetValue(14, HostApiKernelMarker());
    out.SetValue(15, t.biasAbsent);
    out.SetValue(16, t.views);
    out.SetValue(17, t.intrinsics);
}
