"""The Ascend 950's DataCopyPad loop mode (SetLoopModePara / ResetLoopModePara with
LoopModeParams, asc-devkit kernel_struct_data_copy.h) and its Compact padding mode: a kernel
written here moves a box through UB with looped copies in both directions and verifies against
NumPy exactly; a loop mode left on is an error at the copy it would repeat
(tests/fixtures/loop_copy_950)."""
from __future__ import annotations

import json

from tests.conftest import opkg


def test_looped_compact_and_normal_copies_move_the_box_exactly(workspace):
    workspace.copy_fixture("loop_copy_950")
    r = opkg("build", "packages/loop_copy_950", "--json", "--jobs", "1", cwd=workspace.root, check=0)
    [target] = json.loads(r.stdout)["targets"]
    assert target["passed"], r.stdout + r.stderr
    report = json.loads((workspace.root / "out/sim/loop_copy_950/Ascend950PR_9599/float32/verification.json")
                        .read_text())
    [result] = report["results"]
    assert result["passed"]
    assert {name: out["max_abs_error"] for name, out in result["outputs"].items()} == {"y": 0.0, "z": 0.0}


def test_a_loop_mode_left_on_is_an_error_at_the_copy_it_would_repeat(workspace):
    # without the reset, z's plain DataCopy would run 3 x 2 times on the device
    workspace.copy_fixture("loop_copy_950", ("    DataCopyPad<float, PaddingMode::Compact>(zGm, ub, DataCopyExtParams{3, 20, 0, 0, 0});\n"
                      "    ResetLoopModePara(DataCopyMVType::UB_TO_OUT);\n",
                      "    DataCopy(zGm, ub, 8);\n"))
    r = opkg("test", "packages/loop_copy_950", "--jobs", "1", cwd=workspace.root, check=1)
    out = r.stdout + r.stderr
    assert "loop_copy_950.cpp:41" in out and "is still on (2 x 3)" in out, out


def test_a_ub_loop_stride_off_the_32_byte_grid_is_an_error(workspace):
    workspace.copy_fixture("loop_copy_950", ("LoopModeParams in{3, 2, 4 * row, 64, 3 * 4 * row, 3 * 64};",
                      "LoopModeParams in{3, 2, 4 * row, 60, 3 * 4 * row, 3 * 64};"))
    r = opkg("test", "packages/loop_copy_950", "--jobs", "1", cwd=workspace.root, check=1)
    out = r.stdout + r.stderr
    assert "loop_copy_950.cpp:26" in out and "must be multiples of 32" in out, out
