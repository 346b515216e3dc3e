// Test kernel: y = x * scale; info holds what the host API answered (the tiling data) and one
// value of the IR prototype, read in the kernel build where DT_* are macros.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void repo_view(GM_ADDR x, GM_ADDR y, GM_ADDR info, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256 * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    GlobalTensor<int32_t> infoGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, t.total);
    yGm.SetGlobalBuffer((__gm__ float*)y, t.total);
    infoGm.SetGlobalBuffer((__gm__ int32_t*)info, 8);
    LocalTensor<float> l = buf.Get<float>();
    DataCopy(l, xGm, t.total);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Muls(l, l, static_cast<float>(t.scale), t.total);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, l, t.total);
    infoGm.SetValue(0, t.isView);
    infoGm.SetValue(1, t.strideDims);
    infoGm.SetValue(2, t.aiCoreCnt);
    infoGm.SetValue(3, t.aclVersion);
    infoGm.SetValue(4, t.sameShape);
    infoGm.SetValue(5, t.protoAttr);
    infoGm.SetValue(6, static_cast<int32_t>(ge::op::RepoView::default_attr_dst_type().type));
    infoGm.SetValue(7, static_cast<int32_t>(ge::op::RepoView::default_attr_alpha() * 1000));
}
