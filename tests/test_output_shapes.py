"""A verification case's `output_shapes` (docs/manifest.md): outputs only, dims, and one shape
per tensor for a dynamic output. The build-level behaviour (the golden must agree; InferShape's
other opinion only noted) is in tests/test_import_cann_ops.py."""

from __future__ import annotations

import pytest

from opkg.errors import ManifestError
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
