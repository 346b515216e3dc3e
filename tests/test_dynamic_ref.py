"""A dynamic ref tensor (CANN: a dynamic input and a dynamic output of one name, e.g. ops-nn's
ScatterList `var`, FusedSgd's `params`) end to end on our own operator
tests/fixtures/scale_list_ref: one tensor list, holding the input's tensors, is passed at the
input and the output position of the kernel (the list's buffers are the outputs); each tensor
is compared after the run as x[k]. The kernel reads through `x` and stores through `x_ref`:
only one list of buffers at both positions gives the scaled values back."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import yaml

from tests.conftest import opkg

FIXTURE = Path(__file__).parent / "fixtures" / "scale_list_ref"
SOC = "Ascend910B1"


def _copy(workspace) -> Path:
    shutil.copytree(FIXTURE, workspace.root / "packages" / "scale_list_ref")
    return workspace.root / "packages" / "scale_list_ref"


def _report(ws, variant):
    return json.loads((ws.root / "out/sim/scale_list_ref" / SOC / variant / "verification.json").read_text())


def test_each_tensor_of_a_dynamic_ref_is_compared_after_the_run(workspace):
    _copy(workspace)
    r = opkg("build", "packages/scale_list_ref", "--json", cwd=workspace.root, check=0)
    [target] = json.loads(r.stdout)["targets"]
    assert target["passed"], r.stdout + r.stderr
    for variant in ("float32", "float16_float32"):
        by_case = {c["case"]: c for c in _report(workspace, variant)["results"]}
        ragged = by_case["ragged"]["outputs"]
        assert {k: v["shape"] for k, v in ragged.items()} == {"x[0]": [3, 100], "x[1]": [1], "x[2]": [2500]}
        assert set(by_case["one"]["outputs"]) == {"x[0]"}


def test_a_wrong_tensor_of_a_dynamic_ref_fails_alone(workspace):
    pkg = _copy(workspace)
    (pkg / "golden.py").write_text(
        "import numpy as np\n\n\n"
        "def scale_list_ref(x, s):\n"
        "    y = [(t * np.float32(s.reshape(-1)[0])).astype(t.dtype) for t in x]\n"
        "    y[-1] = y[-1] + 1\n"
        "    return y\n")
    r = opkg("build", "packages/scale_list_ref", cwd=workspace.root)
    assert r.returncode == 1 and "FAIL" in r.stdout, r.stdout + r.stderr
    outs = {c["case"]: c for c in _report(workspace, "float32")["results"]}["ragged"]["outputs"]
    assert [outs[f"x[{k}]"]["passed"] for k in range(3)] == [True, True, False]
    assert outs["x[2]"]["mismatches"] == 2500


def test_the_golden_returns_the_list_with_the_inputs_shapes(workspace):
    pkg = _copy(workspace)
    (pkg / "golden.py").write_text("def scale_list_ref(x, s):\n    return x[:1]\n")
    r = opkg("build", "packages/scale_list_ref", cwd=workspace.root)
    assert r.returncode == 1, r.stdout + r.stderr
    ragged = {c["case"]: c for c in _report(workspace, "float32")["results"]}["ragged"]
    assert ("the golden returned x as a list of 1, but x is a dynamic ref tensor (an input list "
            "and an output of one name) of 3 tensors") in ragged["error"]


def test_the_sim_runs_a_dynamic_ref_as_one_list(workspace):
    """run_case straight: the output arrays get what the kernel left in the input's buffers;
    outputs shaped unlike the input's tensors are refused."""
    import pytest

    from opkg.core.socs import get_soc
    from opkg.sim.runtime import SimError, run_case

    _copy(workspace)
    opkg("build", "packages/scale_list_ref", cwd=workspace.root)
    pkg = workspace.load().packages["//packages/scale_list_ref"]
    variant, soc = pkg.op.variant("float32"), get_soc(SOC)
    out = workspace.root / "out/sim/scale_list_ref"
    host, kernel = out / "host/libhost.so", out / SOC / "float32/libkernel.so"
    x = [np.arange(6, dtype=np.float32).reshape(2, 3), np.full(5, 2, np.float32)]
    given = [a.copy() for a in x]
    outputs = {"x": [np.empty((2, 3), np.float32), np.empty(5, np.float32)]}
    run_case(host, kernel, pkg.op, variant, soc, {"x": x, "s": np.array([3], np.float32)},
             outputs, {})
    for a, want in zip(outputs["x"], given):
        assert np.array_equal(a, want * 3)
    with pytest.raises(SimError, match=r"it has the input's shape \[\[2, 3\], \[5\]\], not \[\[6\], \[5\]\]"):
        run_case(host, kernel, pkg.op, variant, soc, {"x": given, "s": np.array([3], np.float32)},
                 {"x": [np.empty(6, np.float32), np.empty(5, np.float32)]}, {})


def test_a_ref_tensor_is_both_dynamic_or_both_required(workspace):
    pkg = _copy(workspace)
    manifest = pkg / "opkg.yaml"
    text = manifest.read_text().replace(
        "  outputs:\n    - {name: x, dtypes: [float32, float16], formats: [ND], param_type: dynamic}",
        "  outputs:\n    - {name: x, dtypes: [float32, float16], formats: [ND]}")
    manifest.write_text(text)
    r = opkg("build", "packages/scale_list_ref", cwd=workspace.root, check=2)
    assert ("'x' is an input and an output (a ref tensor), but one of them is dynamic and the "
            "other required") in r.stdout + r.stderr


def test_import_keeps_a_dynamic_ref_tensor(workspace, tmp_path):
    project = tmp_path / "src" / "foreach" / "scale_list_ref"
    for d in ("op_host", "op_kernel"):
        shutil.copytree(FIXTURE / d, project / d)
    opkg("import", str(project), "--dest", "packages/scale_list_ref", cwd=workspace.root, check=0)
    op = yaml.safe_load((workspace.root / "packages/scale_list_ref/opkg.yaml").read_text())["op"]
    assert [(t["name"], t.get("param_type")) for t in op["outputs"]] == [("x", "dynamic")]
    assert workspace.load().packages["//packages/scale_list_ref"].op.ref_outputs == ("x",)
