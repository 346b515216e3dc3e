"""A verification case's `output_shapes` (docs/manifest.md): outputs only, dims, and one shape
per tensor for a dynamic output. The build-level behaviour (the golden must agree; InferShape's
other opinion only noted) is in tests/test_import_cann_ops.py."""

from __future__ import annotations

import pytest

from opkg.core.errors import ManifestError
from tests.conftest import MINIMAL_MANIFEST


def text(case: str, output: str = "{name: z, dtypes: [float32, float16], formats: [ND]}") -> str:
    t = MINIMAL_MANIFEST.format(name="addone", op_type="AddOne", deps="[]")
    t = t.replace("    - {name: z, dtypes: [float32, float16], formats: [ND]}", "    - " + output)
    return t.replace("    - {name: small, shapes: {x: [4, 64]}}", "    - " + case)


def test_output_shapes_are_read(workspace):
    workspace.operator("addone", manifest=text(
        "{name: small, shapes: {x: [4, 64]}, output_shapes: {z: [4, 1]}}"))
    case = workspace.load().packages["//packages/addone"].verify.cases[0]
    assert case.output_shapes == {"z": (4, 1)}


def test_a_dynamic_output_takes_one_shape_per_tensor(workspace):
    workspace.operator("addone", manifest=text(
        "{name: small, shapes: {x: [4, 64]}, output_shapes: {z: [[4, 64], [2]]}}",
        "{name: z, dtypes: [float32, float16], formats: [ND], param_type: dynamic}"))
    case = workspace.load().packages["//packages/addone"].verify.cases[0]
    assert case.output_shapes == {"z": ((4, 64), (2,))}


@pytest.mark.parametrize("shapes, message", [
    ("{x: [4, 64]}", "'x'"),                      # an input is not an output
    ("{z: [4, -1]}", "non-negative integer"),
])
def test_bad_output_shapes_name_the_field(workspace, shapes, message):
    workspace.operator("addone", manifest=text(
        "{name: small, shapes: {x: [4, 64]}, output_shapes: " + shapes + "}"))
    with pytest.raises(ManifestError) as info:
        workspace.load().packages
    assert message in str(info.value) and "output_shapes" in str(info.value.field)


def test_infer_shape_note_survives_a_passing_case(workspace):
    """A stated output shape InferShape disagrees with is noted in the case's log, and the note
    is still there once the kernel's own log lines are added."""
    import json
    import shutil
    from pathlib import Path

    from tests.conftest import opkg

    pkg = workspace.root / "packages" / "add_n"
    shutil.copytree(Path(__file__).parent / "fixtures" / "add_n", pkg)
    manifest = pkg / "opkg.yaml"
    # the same 512 elements, flat: InferShape (x[0]'s shape) says [8, 64]
    manifest.write_text(manifest.read_text().replace(
        "shapes: {x: [[8, 64], [8, 64], [8, 64]]}",
        "shapes: {x: [[8, 64], [8, 64], [8, 64]]}\n      output_shapes: {y: [512]}"))
    golden = pkg / "golden.py"
    golden.write_text(golden.read_text().replace(
        "    return out\n", "    return out.reshape(-1) if out.shape == (8, 64) else out\n"))
    r = opkg("build", "packages/add_n", "--json", cwd=workspace.root, check=0)
    [target] = json.loads(r.stdout)["targets"]
    assert target["passed"], r.stdout + r.stderr
    report = json.loads((workspace.root / "out/sim/add_n/Ascend910B1/float32/"
                         "verification.json").read_text())
    three = next(c for c in report["results"] if c["case"] == "three")
    assert three["passed"] and three["outputs"]["y"]["shape"] == [512]
    assert ("the case states y with shape [512] but the OpDef's InferShape gives [8, 64]; "
            "the stated shape is used") in three["log"]


def _two_outputs():
    from opkg.core.model import OpSpec, TensorSpec

    return OpSpec("TwoOut", (TensorSpec("x", ("float32",)),),
                  (TensorSpec("y", ("float32",)), TensorSpec("z", ("float32",))))


def test_infer_shape_disagreement_is_a_note_only_for_the_stated_outputs():
    import numpy as np

    from opkg.verify.runner import _shape_disagreement

    inferred = {"y": ((4, 8), "float32"), "z": ((4, 8), "float32")}
    expected = {"y": np.zeros((32,), np.float32), "z": np.zeros((4, 1), np.float32)}
    # y is stated (InferShape's other opinion noted); z is not: its disagreement is an error
    error, notes = _shape_disagreement(_two_outputs(), inferred, expected, {"y": (32,)})
    assert error == ("the golden returned z with shape [4, 1] but the OpDef's InferShape "
                     "gives [4, 8]; fix whichever is wrong")
    assert notes == ["the case states y with shape [32] but the OpDef's InferShape gives [4, 8]; "
                     "the stated shape is used"]
    # both stated: notes only
    error, notes = _shape_disagreement(_two_outputs(), inferred, expected,
                                       {"y": (32,), "z": (4, 1)})
    assert error is None and len(notes) == 2
    # no InferShape, or an output the golden leaves unchecked: nothing to say
    assert _shape_disagreement(_two_outputs(), None, expected, {}) == (None, [])
    assert _shape_disagreement(_two_outputs(), inferred, {"y": None, "z": None}, {}) == (None, [])
