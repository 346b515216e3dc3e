"""The Ascend 950's math API with algorithm configurations (asc-devkit include/adv_api/math/*.h
for __NPU_ARCH__ 3510, and the basic API's Div/Sqrt configs): the calls opbase's atvoss
`util/vec.h` makes compile and verify against NumPy, and a configuration the devkit rejects for a
dtype is a compile error naming it (tests/fixtures/math_950)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.conftest import opkg

FIXTURE = Path(__file__).parent / "fixtures" / "math_950"


def _copy(workspace, edit=None):
    dest = workspace.root / "packages" / "math_950"
    shutil.copytree(FIXTURE, dest)
    if edit:
        kernel = dest / "op_kernel" / "math_950.cpp"
        old, new = edit
        text = kernel.read_text()
        assert old in text
        kernel.write_text(text.replace(old, new))
    return dest


def test_configured_math_apis_verify_exactly_in_float32_and_float16(workspace):
    _copy(workspace)
    r = opkg("build", "packages/math_950", "--json", "--jobs", "1", cwd=workspace.root, check=0)
    [target] = json.loads(r.stdout)["targets"]
    assert target["passed"], r.stdout + r.stderr
    for variant in ("float32", "float16"):
        report = json.loads((workspace.root / f"out/sim/math_950/Ascend950PR_9599/{variant}/verification.json")
                            .read_text())
        [result] = report["results"]
        assert result["passed"]
        # every configuration computes the exact function rounded once, as the golden does
        assert {name: out["max_abs_error"] for name, out in result["outputs"].items()} == dict.fromkeys(
            ("sin", "cos", "atan", "erf", "fmod", "power", "div", "sqrt"), 0.0)


def test_a_float_only_algorithm_on_half_is_a_compile_error(workspace):
    _copy(workspace, ("if constexpr (sizeof(T) == 4) Atan<T, false, ATAN_CFG>(ol, xl, n);\n"
                      "                else Atan(ol, xl, n);", "Atan<T, false, ATAN_CFG>(ol, xl, n);"))
    r = opkg("build", "packages/math_950", "--jobs", "1", cwd=workspace.root, check=0)
    assert r.returncode != 0
    assert "Atan with POLYNOMIAL_APPROXIMATION supports float only" in r.stdout + r.stderr, r.stdout + r.stderr


def test_an_fmod_iteration_count_outside_the_devkit_range_is_a_compile_error(workspace):
    _copy(workspace, ("{FmodAlgo::ITERATION_COMPENSATION, 11}", "{FmodAlgo::ITERATION_COMPENSATION, 12}"))
    r = opkg("test", "packages/math_950", "--variant", "float32", "--jobs", "1", cwd=workspace.root, check=0)
    assert r.returncode != 0
    assert "the iteration number must be in [1, 11]" in r.stdout + r.stderr, r.stdout + r.stderr
