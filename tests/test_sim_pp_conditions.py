"""A kernel source read as text for one architecture (opkg/sim/pp_conditions.py): branches its
architecture's macros rule out are dropped, conditions on other macros kept; the tiling struct a
REGISTER_TILING_DEFAULT names counts only where the SoC's build keeps it (ops-nn's
adaptive_avg_pool3d_grad registers its Ascend 950 struct under `__CCE_AICORE__ == 310`)."""

from __future__ import annotations

from opkg.core.socs import get_soc
from opkg.sim import flags, pp_conditions

KERNEL = """\
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 310
template <int M>
__global__ __aicore__ void op(GM_ADDR x, GM_ADDR tiling) {
    REGISTER_TILING_DEFAULT(OpTilingDataV35);
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


def test_conditions_on_the_architectures_macros():
    macros = pp_conditions.macro_values(["-D__CCE_AICORE__=220", "-D__NPU_ARCH__=2201", "-DX=1",
                                         "-DOPKG_SIM_KERNEL"])
    assert macros == {"__CCE_AICORE__": 220, "__NPU_ARCH__": 2201, "X": 1, "OPKG_SIM_KERNEL": 1}
    c = pp_conditions.condition
    assert c("defined(__CCE_AICORE__) && __CCE_AICORE__ == 220", macros) is True
    assert c("__NPU_ARCH__ == 3510 || __NPU_ARCH__ == 5102", macros) is False
    assert c("!defined(__DAV_C310__)", macros) is True      # an arch macro not set: 0, as cpp
    assert c("__CCE_AICORE__ >= 200U", macros) is True
    assert c("ORIG_DTYPE_X == DT_FLOAT", macros) is None    # not the architecture's: undecided
    text = "\n".join(["a", "#if __NPU_ARCH__ == 3510", "b", "#elif __CCE_AICORE__ == 220", "c",
                      "#else", "d", "#endif", "#ifdef ORIG_DTYPE_X", "e", "#else", "f", "#endif",
                      "#ifndef __NPU_ARCH__", "g", "#endif"])
    assert pp_conditions.kept_lines(text, macros) == ["a", "c", "e", "f"]
