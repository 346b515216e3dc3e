"""A dynamic (tensor-list) output verified end to end through the CLI, on our own operator
tests/fixtures/abs_list (x dynamic -> y dynamic, like cann-ops' foreach operators): the kernel
gets a ListTensorDesc at y's position and writes each tensor into its own GM buffer, the golden
returns a list for y, each tensor is compared as y[k], a tensor the kernel never stores is
reported unwritten, and a failing case saves each tensor."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np

from tests.conftest import opkg

FIXTURE = Path(__file__).parent / "fixtures" / "abs_list"
SOC = "Ascend910B1"


def _copy(workspace):
    shutil.copytree(FIXTURE, workspace.root / "packages" / "abs_list")
    return workspace.root / "packages" / "abs_list"


def _report(ws, variant="float32"):
    return json.loads((ws.root / "out/sim/abs_list" / SOC / variant / "verification.json").read_text())


def _ragged(ws, variant="float32"):
    return {c["case"]: c for c in _report(ws, variant)["results"]}["ragged"]


def test_each_tensor_of_a_dynamic_output_is_compared(workspace):
    _copy(workspace)
    r = opkg("build", "packages/abs_list", "--json", cwd=workspace.root, check=0)
    [target] = json.loads(r.stdout)["targets"]
    assert target["passed"], r.stdout + r.stderr
    for variant in ("float32", "float16"):
        by_case = {c["case"]: c for c in _report(workspace, variant)["results"]}
        ragged = by_case["ragged"]["outputs"]
        assert set(ragged) == {"y[0]", "y[1]", "y[2]"}
        assert [ragged[f"y[{k}]"]["shape"] for k in range(3)] == [[3, 100], [1], [2500]]
        assert set(by_case["one"]["outputs"]) == {"y[0]"}


def test_a_wrong_tensor_of_the_output_list_fails_by_name_and_is_saved(workspace):
    from opkg.verify.inputs import make_input

    pkg = _copy(workspace)
    (pkg / "golden.py").write_text(
        "import numpy as np\n\n\n"
        "def abs_list(x):\n"
        "    y = [np.abs(t) for t in x]\n"
        "    y[1] = y[1] + 1\n"
        "    return y\n")
    r = opkg("build", "packages/abs_list", cwd=workspace.root)
    assert r.returncode == 1 and "FAIL" in r.stdout, r.stdout + r.stderr
    report = _report(workspace)
    result = {c["case"]: c for c in report["results"]}["ragged"]
    outs = result["outputs"]
    assert not outs["y[1]"]["passed"] and outs["y[1]"]["mismatches"] == 1
    assert outs["y[0]"]["passed"] and outs["y[2]"]["passed"]
    failed = workspace.root / "out/sim/abs_list" / SOC / "float32" / result["artifacts"]
    for k, shape in enumerate([(3, 100), (1,), (2500,)]):
        x = make_input(report["seed"], "ragged", f"x[{k}]", shape, "float32", (-2, 2))
        assert np.array_equal(np.load(failed / f"input.x.{k}.npy"), x)
        assert np.array_equal(np.load(failed / f"actual.y.{k}.npy"), np.abs(x))
        assert (failed / f"expected.y.{k}.npy").is_file()


def test_an_output_tensor_the_kernel_never_stores_is_reported_unwritten(workspace):
    pkg = _copy(workspace)
    kernel = pkg / "op_kernel" / "abs_list.cpp"
    text = kernel.read_text()
    skip = "        if (i == 1) continue;   // never writes y[1]\n"
    anchor = "        GlobalTensor<T> xGm;\n"
    assert anchor in text
    kernel.write_text(text.replace(anchor, skip + anchor))
    r = opkg("build", "packages/abs_list", cwd=workspace.root)
    assert r.returncode == 1, r.stdout + r.stderr
    outs = _ragged(workspace)["outputs"]
    assert outs["y[0]"]["passed"] and outs["y[2]"]["passed"]
    assert not outs["y[1]"]["passed"]
    assert outs["y[1]"]["unwritten"] == 1, outs["y[1]"]


def test_a_golden_must_return_a_list_for_a_dynamic_output(workspace):
    pkg = _copy(workspace)
    (pkg / "golden.py").write_text("import numpy as np\n\n\ndef abs_list(x):\n    return np.abs(x[0])\n")
    r = opkg("build", "packages/abs_list", cwd=workspace.root)
    assert r.returncode == 1, r.stdout + r.stderr
    error = _ragged(workspace)["error"]
    assert "dynamic output 'y'" in error and "list of arrays" in error, error
