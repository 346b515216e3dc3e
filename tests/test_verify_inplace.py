"""Verification features the cann-ops case modules need, end to end on our own operators:
an in-place operator with no outputs (verify.inplace: the golden returns the inputs' expected
contents, compared after the run), exact input values (`values`) and constant inputs
(`ranges: [v, v]`), attrs that differ per dtype variant (`per_variant`), and a golden returning
None for an output it does not check."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import opkg

FIXTURES = Path(__file__).parent / "fixtures"
SOC = "Ascend910B1"


@pytest.fixture
def ws(workspace):
    for name in ("scale_inplace", "add_n"):
        shutil.copytree(FIXTURES / name, workspace.root / "packages" / name)
    return workspace


def _report(ws, pkg, variant):
    return json.loads((ws.root / "out/sim" / pkg / SOC / variant / "verification.json").read_text())


def test_in_place_operator_verifies_its_rewritten_input(ws):
    r = opkg("build", "packages/scale_inplace", "--json", cwd=ws.root, check=0)
    [target] = json.loads(r.stdout)["targets"]
    assert target["passed"], r.stdout + r.stderr
    for variant in ("float32_int32", "float16_int32"):
        by_case = {c["case"]: c for c in _report(ws, "scale_inplace", variant)["results"]}
        assert set(by_case["exact_k"]["outputs"]) == {"x"}      # x compared after the run
        assert by_case["exact_k"]["outputs"]["x"]["elements"] == 256
        # per_variant: each variant ran with the dtype code its tiling demands
        assert by_case["exact_k"]["attrs"] == {"code": 0 if variant.startswith("float32") else 1}


def test_in_place_comparison_can_fail(ws):
    golden = ws.root / "packages/scale_inplace/golden.py"
    golden.write_text(golden.read_text().replace("+ np.float32(k[1])", "- np.float32(k[1])"))
    r = opkg("build", "packages/scale_inplace", cwd=ws.root)
    assert r.returncode == 1 and "FAIL" in r.stdout
    result = _report(ws, "scale_inplace", "float32_int32")["results"][0]
    assert result["outputs"]["x"]["mismatches"] > 0


def test_a_failing_in_place_case_saves_the_input_it_ran_with(ws):
    """input.x.npy is x before the kernel rewrote it (actual.x.npy is after), and the inputs
    the kernel does not rewrite are not read back from the device either."""
    import numpy as np

    from opkg.verify.inputs import make_input

    golden = ws.root / "packages/scale_inplace/golden.py"
    golden.write_text(golden.read_text().replace("+ np.float32(k[1])", "- np.float32(k[1])"))
    assert opkg("build", "packages/scale_inplace", cwd=ws.root).returncode == 1
    variant = ws.root / "out/sim/scale_inplace" / SOC / "float32_int32"
    report = _report(ws, "scale_inplace", "float32_int32")
    result = report["results"][0]
    failed = variant / result["artifacts"]
    x = make_input(report["seed"], "exact_k", "x", (256,), "float32")
    assert np.array_equal(np.load(failed / "input.x.npy"), x)
    assert np.array_equal(np.load(failed / "input.k.npy"), np.array([3, -1], np.int32))
    assert np.allclose(np.load(failed / "actual.npy"), x * 3 - 1)    # the kernel's result


def test_exact_values_must_fit_the_dtype(ws):
    manifest = ws.root / "packages/scale_inplace/opkg.yaml"
    manifest.write_text(manifest.read_text().replace("values: {k: [3, -1]}", "values: {k: [3, 0.5]}"))
    r = opkg("build", "packages/scale_inplace", cwd=ws.root)
    assert r.returncode == 1
    result = _report(ws, "scale_inplace", "float32_int32")["results"][0]
    assert "input 'k': value 0.5 (element 1) is not exact in int32" in result["error"]


def test_a_golden_returning_none_for_everything_fails(ws):
    (ws.root / "packages/add_n/golden.py").write_text("def add_n(x):\n    y = x[0] + x[1]\n")
    r = opkg("build", "packages/add_n", "--json", cwd=ws.root, check=1)
    [target] = json.loads(r.stdout)["targets"]
    assert not target["passed"]
    result = _report(ws, "add_n", "float32")["results"][0]
    assert not result["passed"] and result["outputs"] == {}
    assert result["error"] == ("the golden compared nothing: it returned None for every output "
                               "(missing return?); return the expected arrays")


def test_a_golden_returning_none_leaves_that_output_unchecked(workspace):
    """Of two compared tensors (output z, in-place input y) the golden checks only y: z is not
    compared, yet the kernel still gets its buffer (shaped by InferShape) and runs."""
    pkg = workspace.copy_package("add_custom")
    manifest = pkg / "opkg.yaml"
    manifest.write_text(manifest.read_text().replace("  seed: 0\n", "  seed: 0\n  inplace: [y]\n"))
    # the kernel leaves y as it was
    (pkg / "golden.py").write_text("def add_custom(x, y):\n    return None, y\n")
    r = opkg("build", "packages/add_custom", "--soc", SOC, "--json", cwd=workspace.root, check=0)
    [target] = json.loads(r.stdout)["targets"]
    assert target["passed"], r.stdout + r.stderr
    for result in _report(workspace, "add_custom", "float32")["results"]:
        assert set(result["outputs"]) == {"y"} and result["run"]["block_dim"] > 0


def test_complex_inputs_draw_both_parts_and_compare_each():
    import numpy as np

    from opkg.verify.compare import compare
    from opkg.verify.inputs import make_input
    from opkg.verify.runner import _parts

    x = make_input(0, "c", "x", (4, 8), "complex64", (-2, 2))
    assert x.dtype == np.complex64 and np.abs(x.imag).max() > 0 and np.abs(x.real).max() <= 2
    wrong = x.copy()
    wrong[1, 3] = np.conj(wrong[1, 3])      # same real part, same magnitude: imag must count
    result = compare(_parts(wrong), _parts(x), rtol=1e-6, atol=1e-6, error_ratio=0.0)
    assert not result["passed"] and result["first_mismatch"]["index"] == [1, 3, 1]
    assert compare(_parts(x), _parts(x.copy()), rtol=0, atol=0, error_ratio=0)["passed"]


def test_an_optional_input_a_case_leaves_out_reaches_the_golden_as_none():
    """The golden takes every input in prototype order (as `opkg import` writes its stub): an
    optional input the case leaves out is None, so a later input never takes its place
    (cann-ops DequantSwigluQuant gives quant_scale without weight_scale)."""
    import numpy as np

    from opkg.core.model import OpSpec, TensorSpec
    from opkg.verify.runner import _call_golden

    f32 = ("float32",)
    op = OpSpec(type="ScaleBias", inputs=(TensorSpec("x", f32), TensorSpec("w", f32, param_type="optional"),
                                          TensorSpec("b", f32, param_type="optional")),
                outputs=(TensorSpec("y", f32),))
    seen = {}

    def golden(x, w, b, *, alpha):
        seen.update(w=w, b=b)
        return x * alpha + (0 if b is None else b)

    x, b = np.ones(4, np.float32), np.full(4, 2, np.float32)
    out = _call_golden(golden, op, {"x": x, "b": b}, {"alpha": 3.0}, op.variants()[0])
    assert seen["w"] is None and seen["b"] is b
    assert out["y"].tolist() == [5.0] * 4
