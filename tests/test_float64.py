"""float64 (ge::DT_DOUBLE, cann-ops' EyeFp64 and DiagV2) end to end on our own operator
tests/fixtures/double_scale: the kernel is compiled with DTYPE_X=double, inputs are drawn and
goldens compared in NumPy float64, and nothing on the way rounds through float32."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.conftest import opkg

FIXTURE = Path(__file__).parent / "fixtures" / "double_scale"
SOC = "Ascend910B1"


def _report(ws, variant):
    return json.loads((ws.root / "out/sim/double_scale" / SOC / variant / "verification.json").read_text())


def test_a_double_variant_builds_and_verifies_exactly(workspace):
    shutil.copytree(FIXTURE, workspace.root / "packages" / "double_scale")
    r = opkg("build", "packages/double_scale", "--json", cwd=workspace.root, check=0)
    [target] = json.loads(r.stdout)["targets"]
    assert target["passed"] and set(target["variants"]) == {"float64", "float32"}, r.stdout
    [result] = _report(workspace, "float64")["results"]
    y = result["outputs"]["y"]
    assert y["dtype"] == "float64" and y["elements"] == 111 and y["max_abs_error"] == 0.0


def test_a_double_result_off_by_a_float32_rounding_fails(workspace):
    """The golden rounds through float32: with float64's exact tolerance that is a mismatch,
    so the comparison really holds float64 bits (and the kernel's result kept them)."""
    pkg = workspace.root / "packages" / "double_scale"
    shutil.copytree(FIXTURE, pkg)
    (pkg / "golden.py").write_text("import numpy as np\n\n\ndef double_scale(x):\n"
                                   "    return (x * 2).astype(np.float32)\n")
    r = opkg("build", "packages/double_scale", cwd=workspace.root)
    assert r.returncode == 1, r.stdout + r.stderr
    assert not _report(workspace, "float64")["passed"]
    assert _report(workspace, "float32")["passed"]


def test_double_is_a_dtype_spelling_and_has_a_default_tolerance():
    from opkg.core.manifest import DEFAULT_TOLERANCE
    from opkg.core.model import DTYPE_ALIASES, DTYPES

    assert DTYPES["float64"].c_type == "double" and DTYPES["float64"].ge_value == 11
    assert DTYPE_ALIASES["double"] == "float64"
    assert DEFAULT_TOLERANCE["float64"] == DEFAULT_TOLERANCE["float32"]


def test_a_float8_output_builds_and_verifies_on_the_950(workspace):
    """tests/fixtures/fp8_cast: float32 in, float8_e4m3fn / float8_e5m2 out, converted by the
    kernel's fp8 types on Ascend950PR_9599 and compared with ml_dtypes' rounding of the golden."""
    fixture = Path(__file__).parent / "fixtures" / "fp8_cast"
    shutil.copytree(fixture, workspace.root / "packages" / "fp8_cast")
    r = opkg("build", "packages/fp8_cast", "--json", cwd=workspace.root, check=0)
    [target] = json.loads(r.stdout)["targets"]
    assert target["passed"] and set(target["variants"]) == {"float32_float8_e4m3fn", "float32_float8_e5m2"}, \
        r.stdout
    out = workspace.root / "out/sim/fp8_cast/Ascend950PR_9599"
    for dtype in ("float8_e4m3fn", "float8_e5m2"):
        report = json.loads((out / f"float32_{dtype}" / "verification.json").read_text())
        [result] = report["results"]
        y = result["outputs"]["y"]
        assert y["dtype"] == dtype and y["elements"] == 111 and y["max_abs_error"] == 0.0
