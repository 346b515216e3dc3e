#include "kernel_operator.h"
using namespace AscendC;

#if ORIG_DTYPE_X != DT_FLOAT || ORIG_DTYPE_Y != DT_INT64 || !defined(DT_BF16)
#error "ORIG_DTYPE_<NAME> and DT_* must be usable in #if, as in CANN kernel builds"
#endif

template <class TD>
__aicore__ inline void Emit(GM_ADDR y, const TD& t)
{
    GlobalTensor<int64_t> out;
    out.SetGlobalBuffer((__gm__ int64_t*)y + GetBlockIdx() * 16, 16);
    out.SetValue(0, t.a);
    out.SetValue(1, t.b);
    out.SetValue(2, (int64_t)(t.c * 1000.0f));
    out.SetValue(3, t.d);
    for (int i = 0; i < 5; ++i) out.SetValue(4 + i, t.arr[i]);
    out.SetValue(9, t.inner.p);
    out.SetValue(10, t.inner.q);
    out.SetValue(11, (int64_t)(t.inner.r * 1000.0f));
    out.SetValue(12, t.e);
    out.SetValue(13, (int64_t)sizeof(TD));
    out.SetValue(14, GetTPipePtr() == nullptr ? GetBlockNum() : -1);
    out.SetValue(15, GetBlockIdx());
}

extern "C" __global__ __aicore__ void tiling_rt(GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    if (TILING_KEY_IS(1)) {
        GET_TILING_DATA(t, tiling);
        Emit(y, t);
    } else if (TILING_KEY_IS(2)) {
        GET_TILING_DATA_WITH_STRUCT(TilingDataRT, t, tiling);
        Emit(y, t);
    } else {
        REGISTER_TILING_DEFAULT(TilingDataRT);
        GET_TILING_DATA(t, tiling);
        Emit(y, t);
    }
}
