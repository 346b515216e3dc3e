"""Mixed kernels on the sim as the device runs them (the split launch, core_by_task_type.h): each
AI core runs its cube body and its vector bodies, with the block identity the devkit gives each
core type and the declared task type deciding which bodies run; CrossCoreSetFlag/CrossCoreWaitFlag
modes 1 and 2 pass data between the bodies of an AI core (cross_core.h), and a wait no body will
satisfy is reported at its line instead of hanging."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, TensorSpec
from opkg.sim import flags, runtime
import simbuild

OP = OpSpec(
    "CrossCore",
    (TensorSpec("x", ("float32",)), TensorSpec("ws", ("float32",))),
    (TensorSpec("y", ("float32",)),),
    (AttrSpec("which", "int", required=True), AttrSpec("blocks", "int", 2)),
)
CORES = 2
KERNEL = Path(__file__).parent / "pkgs" / "crosscore" / "op_kernel" / "cross_core.cpp"


@pytest.fixture(scope="module")
def built(pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "crosscore", OP, OP.variant("float32"), soc910b, lib_cache, stem="cross_core")


def run(built, which):
    x = np.arange(CORES * 16, dtype=np.float32) - 7
    ws = np.zeros(CORES * 16, np.float32)
    y = np.full(64, np.nan, np.float32)
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x, "ws": ws}, {"y": y},
                     {"which": which, "blocks": CORES})
    return x, y


def test_vector_to_cube_and_back_through_mode_2_flags(built):
    x, y = run(built, 1)
    np.testing.assert_array_equal(y[:32], (2 * x + 1) * 3)


def test_mix_1_1_runs_one_vector_core_per_ai_core(built):
    x, y = run(built, 3)
    np.testing.assert_array_equal(y[:32], 2 * x + 1)


def test_mode_1_meets_the_vector_cores_of_an_ai_core(built):
    x, y = run(built, 4)
    np.testing.assert_array_equal(y[:32], x + np.tile(np.repeat([0, 10], 8), CORES))


def test_block_identity_per_core_type(built):
    _, y = run(built, 5)
    # AIV: GetBlockIdx = AI core * 2 + sub-block, GetBlockNum = the AI cores, GetTaskRation 2
    aiv = [i + 10 * (i % 2) + 1000 * CORES + 20000 for i in range(2 * CORES)]
    np.testing.assert_array_equal(y[:2 * CORES], aiv)
    # AIC: GetBlockIdx = the AI core, GetSubBlockIdx 0
    np.testing.assert_array_equal(y[32:32 + CORES], [500 + c for c in range(CORES)])


@pytest.mark.parametrize("which,marker,words", [
    # the AIC leaves out its set of flag 4: both AIVs wait forever
    (2, "aiv-wait", ["CrossCoreWaitFlag(4) on the vector core AIV", "the cube core (AIC) has returned"]),
    # the AIC waits for flag 3 twice, which the AIVs set once (and then wait for flag 4)
    (6, "second-wait", ["CrossCoreWaitFlag(3) on the cube core (AIC)", "waits for flag 4"]),
], ids=["missing-set", "second-wait"])
def test_a_wait_nobody_satisfies_is_a_deadlock_at_its_line(built, which, marker, words):
    with pytest.raises(runtime.SimError) as err:
        run(built, which)
    msg = str(err.value)
    assert f"cross_core.cpp:{simbuild.line_of(KERNEL, marker)}" in msg
    assert "waits for a flag that no core of its AI core will set" in msg
    for w in words:
        assert w in msg


def test_core_type_flags_for_mixed_kernels():
    f = flags.core_type_flags(["KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);"])
    assert f[0] == "-include" and f[1].endswith("opkg_sim/runtime/core_by_task_type.h")
    assert flags.core_type_flags(["NotifyEvent<PIPE_MTE3>(3);"]) == f
    assert flags.core_type_flags(["CrossCoreSetFlag<2, PIPE_FIX>(0);"]) == f
    assert flags.core_type_flags(["CrossCoreSetFlag<0, PIPE_MTE3>(0);"]) == []
    # a kernel that only tests the core type: split when it is mixed (uses the Matmul API), which
    # the runtime decides as it launches (cann-ops' gemm_v2: `if ASCEND_IS_AIV { return; }`)
    assert flags.core_type_flags(["if ASCEND_IS_AIV { return; }"]) == [*f, "-DOPKG_SIM_SPLIT_IF_MIXED=1"]
    assert flags.core_type_flags(["// ASCEND_IS_AIC in a comment"]) == []


def test_the_cube_bodies_run_the_cube_core_compile(built):
    # the kernel tests __DAV_C220_CUBE__: its cube bodies run a second compile of it with that
    # macro (and without __DAV_C220_VEC__), whose inline functions stay its own
    assert flags.needs_cube_body([KERNEL.read_text()], built.soc)
    _, y = run(built, 7)
    np.testing.assert_array_equal(y[:2 * CORES], 2000 + np.arange(2 * CORES))
    np.testing.assert_array_equal(y[32:32 + CORES], 1000 + np.arange(CORES))
