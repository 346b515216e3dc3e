"""A dynamic (tensor-list) input verified in place, end to end through the CLI, on our own
operator tests/fixtures/scale_list (no outputs, like cann-ops' ForeachZeroInplace and
ForeachNonFiniteCheckAndUnscale): the golden returns a list for it, each tensor is compared
after the run as x[k], a failing case saves each tensor before (input.x.<k>.npy) and after
(actual.x.<k>.npy), an optional input may be compared only when every case passes it, and
`opkg import` of an OpDef without outputs lists the inputs it may rewrite."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import yaml

from tests.conftest import opkg

FIXTURE = Path(__file__).parent / "fixtures" / "scale_list"
SOC = "Ascend910B1"


def _copy(workspace):
    shutil.copytree(FIXTURE, workspace.root / "packages" / "scale_list")
    return workspace.root / "packages" / "scale_list"


def _report(ws, variant):
    return json.loads((ws.root / "out/sim/scale_list" / SOC / variant / "verification.json").read_text())


def test_each_tensor_of_an_in_place_list_is_compared_after_the_run(workspace):
    _copy(workspace)
    r = opkg("build", "packages/scale_list", "--json", cwd=workspace.root, check=0)
    [target] = json.loads(r.stdout)["targets"]
    assert target["passed"], r.stdout + r.stderr
    for variant in ("float32", "float16_float32"):
        by_case = {c["case"]: c for c in _report(workspace, variant)["results"]}
        ragged = by_case["ragged"]["outputs"]
        assert set(ragged) == {"x[0]", "x[1]", "x[2]", "count"}
        assert [ragged[f"x[{k}]"]["shape"] for k in range(3)] == [[3, 100], [1], [2500]]
        assert set(by_case["one"]["outputs"]) == {"x[0]", "count"}


def test_a_wrong_tensor_of_the_list_fails_and_its_arrays_are_saved(workspace):
    """The golden is wrong for x[1] only: that tensor fails, the others pass; the failing case
    keeps each tensor as it was before the run and as the kernel left it."""
    from opkg.verify.inputs import make_input

    pkg = _copy(workspace)
    (pkg / "golden.py").write_text(
        "import numpy as np\n\n\n"
        "def scale_list(x, count, s):\n"
        "    scale = np.float32(s.reshape(-1)[0])\n"
        "    y = [(t.astype(np.float32) * scale).astype(t.dtype) for t in x]\n"
        "    y[1] = y[1] + 1\n"
        "    return y, count + np.float32(len(x))\n")
    r = opkg("build", "packages/scale_list", cwd=workspace.root)
    assert r.returncode == 1 and "FAIL" in r.stdout, r.stdout + r.stderr
    report = _report(workspace, "float32")
    result = {c["case"]: c for c in report["results"]}["ragged"]
    outs = result["outputs"]
    assert not outs["x[1]"]["passed"] and outs["x[1]"]["mismatches"] == 1
    assert outs["x[0]"]["passed"] and outs["x[2]"]["passed"] and outs["count"]["passed"]
    failed = workspace.root / "out/sim/scale_list" / SOC / "float32" / result["artifacts"]
    shapes = [(3, 100), (1,), (2500,)]
    for k, shape in enumerate(shapes):
        before = make_input(report["seed"], "ragged", f"x[{k}]", shape, "float32", None)
        assert np.array_equal(np.load(failed / f"input.x.{k}.npy"), before)
        assert np.array_equal(np.load(failed / f"actual.x.{k}.npy"), before * np.float32(0.5))
        assert (failed / f"expected.x.{k}.npy").is_file()
    assert np.load(failed / "actual.count.npy").shape == (1,)


def test_a_golden_must_return_one_array_per_tensor_of_the_list(workspace):
    pkg = _copy(workspace)
    (pkg / "golden.py").write_text("def scale_list(x, count, s):\n    return x[0], count\n")
    r = opkg("build", "packages/scale_list", cwd=workspace.root)
    assert r.returncode == 1, r.stdout + r.stderr
    result = _report(workspace, "float32")["results"][0]
    assert ("returned ndarray for the in-place dynamic input 'x', which holds 3 tensors in this "
            "case; return a list of 3 arrays, one per tensor") in result["error"]


def test_an_optional_input_in_place_needs_a_shape_in_every_case(workspace):
    pkg = _copy(workspace)
    manifest = pkg / "opkg.yaml"
    text = (manifest.read_text()
            .replace("- {name: s, dtypes: [float32, float32], formats: [ND]}",
                     "- {name: s, dtypes: [float32, float32], formats: [ND], param_type: optional}")
            .replace("inplace: [x, count]", "inplace: [x, count, s]")
            .replace("shapes: {x: [[64]], count: [1], s: [1]}", "shapes: {x: [[64]], count: [1]}"))
    manifest.write_text(text)
    r = opkg("build", "packages/scale_list", cwd=workspace.root, check=2)
    line = next(n for n, s in enumerate(text.splitlines(), 1) if "shapes: {x: [[64]]" in s)
    assert f"opkg.yaml:{line}:" in r.stderr
    assert ("case 'one' leaves out the optional input 's', which verify.inplace compares after "
            "the run; an input that is not passed cannot be compared") in r.stderr
    assert "give 's' a shape in every case, or leave it out of inplace" in r.stderr


def _project(tmp_path: Path, opdef_edit=None) -> Path:
    """The fixture as a cann-ops project (op_host, op_kernel; no manifest, no golden)."""
    project = tmp_path / "src" / "foreach" / "scale_list"
    for d in ("op_host", "op_kernel"):
        shutil.copytree(FIXTURE / d, project / d)
    if opdef_edit:
        host = project / "op_host" / "scale_list.cpp"
        host.write_text(host.read_text().replace(*opdef_edit))
    return project


def test_import_lists_the_required_and_dynamic_inputs_in_place(workspace, tmp_path):
    r = opkg("import", str(_project(tmp_path)), "--dest", "packages/scale_list",
             cwd=workspace.root, check=0)
    assert ("ScaleList declares no outputs (it rewrites inputs in place): verify.inplace lists "
            "x, count, s; keep only those the kernel rewrites") in r.stdout
    pkg = workspace.root / "packages" / "scale_list"
    assert yaml.safe_load((pkg / "opkg.yaml").read_text())["verify"]["inplace"] == ["x", "count", "s"]
    assert "# Return x (a list: one array per tensor), count, s" in (pkg / "golden.py").read_text()
    # what import wrote loads
    assert workspace.load().packages["//packages/scale_list"].verify.inplace == ("x", "count", "s")


def test_import_leaves_an_optional_input_out_of_inplace(workspace, tmp_path):
    project = _project(tmp_path, ('this->Input("s").ParamType(REQUIRED)',
                                  'this->Input("s").ParamType(OPTIONAL)'))
    opkg("import", str(project), "--dest", "packages/scale_list", cwd=workspace.root, check=0)
    text = (workspace.root / "packages/scale_list/opkg.yaml").read_text()
    assert yaml.safe_load(text)["verify"]["inplace"] == ["x", "count"]
    assert "# Optional inputs (s) are not listed: add one only if every case gives it a shape." in text
