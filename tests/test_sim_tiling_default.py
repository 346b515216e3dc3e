"""The struct a kernel registers with REGISTER_TILING_DEFAULT, read from its source before the
compile, counts only where the SoC's build keeps the registration: ops-nn's
adaptive_avg_pool3d_grad registers its Ascend 950 struct under `__CCE_AICORE__ == 310`, beside a
classic entry whose GET_TILING_DATA reads the op's registered class."""

from __future__ import annotations

from opkg.core.socs import get_soc
from opkg.sim import flags

KERNEL = """\
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 310
template <int M>
__global__ __aicore__ void op(GM_ADDR x, GM_ADDR tiling) {
    REGISTER_TILING_DEFAULT(OpTilingDataV35);   // the 950's struct
    GET_TILING_DATA_WITH_STRUCT(OpTilingDataV35, t, tiling);
}
#else
extern "C" __global__ __aicore__ void op(GM_ADDR x, GM_ADDR tiling) {
    GET_TILING_DATA(t, tiling);
}
#endif
"""


def test_a_registration_in_another_architectures_branch_is_not_the_default():
    assert flags.registered_tiling_default(KERNEL, get_soc("Ascend910B1")) is None
    assert flags.registered_tiling_default(KERNEL) == "OpTilingDataV35"   # text alone: as before


def test_a_registration_the_build_keeps_or_cannot_decide_is_the_default():
    on_910b = KERNEL.replace("__CCE_AICORE__ == 310", "__CCE_AICORE__ == 220")
    assert flags.registered_tiling_default(on_910b, get_soc("Ascend910B1")) == "OpTilingDataV35"
    by_dtype = KERNEL.replace("defined(__CCE_AICORE__) && __CCE_AICORE__ == 310",
                              "ORIG_DTYPE_X == DT_FLOAT")   # a variant's macro: kept
    assert flags.registered_tiling_default(by_dtype, get_soc("Ascend910B1")) == "OpTilingDataV35"
