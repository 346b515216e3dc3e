"""A ref tensor (CANN: an Input and an Output of one name, e.g. cann-ops' Eye) end to end on our
own operator tests/fixtures/ref_diag: one buffer, holding the input's values, is passed at the
input and the output position of the kernel (the same GM address twice, as CANN's launch does
for aclnn's `yRef`), and compared as the output after the run; what the kernel does not store
keeps the input's values."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import yaml

from tests.conftest import opkg

FIXTURE = Path(__file__).parent / "fixtures" / "ref_diag"
SOC = "Ascend910B1"


def _copy(workspace) -> Path:
    shutil.copytree(FIXTURE, workspace.root / "packages" / "ref_diag")
    return workspace.root / "packages" / "ref_diag"


def _report(ws, variant):
    return json.loads((ws.root / "out/sim/ref_diag" / SOC / variant / "verification.json").read_text())


def test_a_ref_tensor_is_one_buffer_at_both_kernel_positions(workspace):
    # the kernel reads the diagonal through `y` and writes it through `y_ref`: only one buffer
    # for both gives the input's off-diagonal values back, and the doubled diagonal
    _copy(workspace)
    r = opkg("build", "packages/ref_diag", "--json", cwd=workspace.root, check=0)
    [target] = json.loads(r.stdout)["targets"]
    assert target["passed"], r.stdout + r.stderr
    for variant in ("float32", "float16"):
        by_case = {c["case"]: c for c in _report(workspace, variant)["results"]}
        assert set(by_case["wide"]["outputs"]) == {"y"}
        assert by_case["wide"]["outputs"]["y"]["shape"] == [5, 9]
        assert by_case["tall"]["outputs"]["y"]["unwritten"] == 0


def test_a_golden_that_rewrites_the_ref_input_does_not_change_what_the_kernel_gets(workspace):
    # the golden doubles the diagonal of its argument in place and returns it: the kernel must
    # still start from the drawn input (else the diagonal would be doubled twice)
    pkg = _copy(workspace)
    (pkg / "golden.py").write_text(
        "import numpy as np\n\n\ndef ref_diag(y):\n    n = min(y.shape)\n"
        "    y[np.arange(n), np.arange(n)] *= 2\n    return y\n")
    r = opkg("build", "packages/ref_diag", cwd=workspace.root)
    assert r.returncode == 0, r.stdout + r.stderr


def test_a_ref_tensor_comparison_can_fail(workspace):
    pkg = _copy(workspace)
    (pkg / "golden.py").write_text("def ref_diag(y):\n    return y\n")    # forgets the diagonal
    r = opkg("build", "packages/ref_diag", cwd=workspace.root)
    assert r.returncode == 1 and "FAIL" in r.stdout, r.stdout + r.stderr
    by_case = {c["case"]: c for c in _report(workspace, "float32")["results"]}
    assert by_case["wide"]["outputs"]["y"]["mismatches"] == 5
    assert by_case["tall"]["outputs"]["y"]["mismatches"] == 4


def test_a_golden_shape_other_than_the_ref_inputs_is_a_clear_error(workspace):
    pkg = _copy(workspace)
    (pkg / "golden.py").write_text("def ref_diag(y):\n    return y[:, :1]\n")
    r = opkg("build", "packages/ref_diag", cwd=workspace.root)
    assert r.returncode == 1
    error = _report(workspace, "float32")["results"][0]["error"]
    assert "the golden returned y with shape [5, 1]" in error, error


def test_a_ref_tensor_is_not_listed_in_place_and_has_no_output_shapes(workspace):
    pkg = _copy(workspace)
    manifest = pkg / "opkg.yaml"
    text = manifest.read_text()
    manifest.write_text(text.replace("  cases:\n", "  inplace: [y]\n  cases:\n"))
    r = opkg("build", "packages/ref_diag", cwd=workspace.root, check=2)
    assert "'y' is also an output (a ref tensor): it is compared as that output already" in r.stderr
    manifest.write_text(text.replace("shapes: {y: [5, 9]}\n",
                                     "shapes: {y: [5, 9]}\n      output_shapes: {y: [5, 9]}\n"))
    r = opkg("build", "packages/ref_diag", cwd=workspace.root, check=2)
    assert "output 'y' is also an input (a ref tensor): its shape is the input's" in r.stderr
    manifest.write_text(text.replace("- {name: y, dtypes: [float32, float16], formats: [ND]}\ntiling",
                                     "- {name: y, dtypes: [float32, float32], formats: [ND]}\ntiling"))
    r = opkg("build", "packages/ref_diag", cwd=workspace.root, check=2)
    line = next(n for n, s in enumerate(manifest.read_text().splitlines(), 1)
                if "[float32, float32]" in s)
    assert f"opkg.yaml:{line}:" in r.stderr
    assert "'y' is an input and an output (a ref tensor), but their dtypes or formats differ" \
        in r.stderr


def test_import_reads_a_ref_tensor(workspace, tmp_path):
    project = tmp_path / "src" / "math" / "ref_diag"
    for d in ("op_host", "op_kernel"):
        shutil.copytree(FIXTURE / d, project / d)
    opkg("import", str(project), "--dest", "packages/ref_diag", cwd=workspace.root, check=0)
    op = yaml.safe_load((workspace.root / "packages/ref_diag/opkg.yaml").read_text())["op"]
    assert [t["name"] for t in op["inputs"]] == ["y"] and [t["name"] for t in op["outputs"]] == ["y"]
    assert workspace.load().packages["//packages/ref_diag"].op.ref_outputs == ("y",)
    # an input and an output of one name that are not one buffer stay an import error
    host = project / "op_host" / "ref_diag.cpp"
    host.write_text(host.read_text().replace(
        'this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})',
        'this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT})'))
    r = opkg("import", str(project), "--dest", "packages/ref_diag2", cwd=workspace.root, check=2)
    assert "input and output share the name 'y'; opkg needs distinct tensor names, or an input " \
           "and an output of one name, both required or both dynamic, with the same dtypes and formats" in r.stderr


def test_an_infershape_reshaping_a_ref_tensor_is_a_note(workspace):
    # ops-nn's dynamic_quant_update_scatter_v2 gives its ref var the rank of x ([8, 7, 1, 128]
    # in, [8, 7, 128] out): the kernel writes the input's buffer whatever the graph calls it,
    # so the same elements under another shape are compared as the input's; other elements
    # (a wrong size) still fail the case
    pkg = _copy(workspace)
    host = pkg / "op_host" / "ref_diag.cpp"
    same = "    *context->GetOutputShape(0) = *context->GetInputShape(0);\n"
    flat = ("    auto in = context->GetInputShape(0);\n"
            "    context->GetOutputShape(0)->SetDimNum(1);\n"
            "    context->GetOutputShape(0)->SetDim(0, in->GetDim(0) * in->GetDim(1)%s);\n")
    host.write_text(host.read_text().replace(same, flat % ""))
    r = opkg("build", "packages/ref_diag", cwd=workspace.root)
    assert r.returncode == 0, r.stdout + r.stderr
    log = _report(workspace, "float32")["results"][0]["log"]
    assert any("InferShape gives y shape [45]" in l and "the input's shape [5, 9] is used" in l
               for l in log), log
    host.write_text(host.read_text().replace(flat % "", flat % " - 1"))
    r = opkg("build", "packages/ref_diag", cwd=workspace.root)
    assert r.returncode == 1
    error = _report(workspace, "float32")["results"][0]["error"]
    assert "the golden returned y with shape [5, 9] but the OpDef's InferShape gives [44]" in error


def test_a_ttk_golden_s_ref_tensor_stays_in_the_input_s_shape():
    # ops-nn's dynamic_quant_update_scatter_v2: its table and InferShape give var x's rank
    # ([1, 1, 2] for a [1, 1, 1, 2] var); the golden returns var as the input, the kernel
    # rewrites the input's buffer: compared in the input's shape, not reshaped to the stated
    # one (the ref's other shape is a note), while other outputs take the stated shape
    import numpy as np

    from opkg.core.model import OpSpec, TensorSpec
    from opkg.verify.runner import _in_shape, _output_shapes

    op = OpSpec("Upd", (TensorSpec("x", ("float32",)), TensorSpec("var", ("float32",))),
                (TensorSpec("var", ("float32",)), TensorSpec("s", ("float32",))), ())
    assert op.ref_outputs == ("var",)
    inputs = {"x": np.zeros((1, 1, 2), np.float32), "var": np.zeros((1, 1, 1, 2), np.float32)}
    shapes = _output_shapes(op, {"var": ((1, 1, 2), "float32"), "s": ((1, 1), "float32")},
                            {"var": [1, 1, 2], "s": [1]}, inputs)
    assert shapes == {"var": [1, 1, 1, 2], "s": [1]}
    expected = {"var": np.ones((1, 1, 1, 2), np.float32), "s": np.ones((1, 1), np.float32)}
    shaped = _in_shape(op, op.variants()[0], expected, shapes)
    assert shaped["var"].shape == (1, 1, 1, 2) and shaped["s"].shape == (1,)
