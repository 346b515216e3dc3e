"""Every dtype combination of an operator is one kernel under a name of its own: combinations
with the same dtypes in different tensors (RmsNorm's x float16 with gamma float32 or float16)
each get one, and two identical combinations are an error, never one kernel lost silently."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from opkg.core.model import DuplicateVariant, OpSpec, TensorSpec
from tests.conftest import opkg

FIXTURES = Path(__file__).parent / "fixtures"


def _op(**dtypes) -> OpSpec:
    names = list(dtypes)
    return OpSpec("T", tuple(TensorSpec(n, tuple(dtypes[n])) for n in names[:-1]),
                  (TensorSpec(names[-1], tuple(dtypes[names[-1]])),))


def test_names_stay_short_while_they_are_unique():
    op = _op(x=["float16", "float32", "float16"], y=["float16", "float32", "float32"])
    assert [v.name for v in op.variants()] == ["float16", "float32", "float16_float32"]


def test_combinations_with_the_same_dtypes_are_told_apart_by_the_tensors_that_differ():
    # RmsNorm's five combinations (x, gamma, y, rstd): two pairs share their distinct dtypes
    op = _op(x=["float16", "bfloat16", "float16", "float32", "bfloat16"],
             gamma=["float32", "float32", "float16", "float32", "bfloat16"],
             y=["float16", "bfloat16", "float16", "float32", "bfloat16"],
             rstd=["float32"] * 5)
    names = [v.name for v in op.variants()]
    assert names == ["float16_float32__gamma_float32", "bfloat16_float32__gamma_float32",
                     "float16_float32__gamma_float16", "float32",
                     "bfloat16_float32__gamma_bfloat16"]
    # the same prototype gives the same names; a variant is found by its name
    assert [v.name for v in op.variants()] == names
    assert op.variant("float16_float32__gamma_float16").dtype_of("gamma") == "float16"


def test_formats_tell_apart_what_dtypes_do_not():
    op = OpSpec("T", (TensorSpec("x", ("float16", "float16"), ("ND", "NCHW")),),
                (TensorSpec("y", ("float16", "float16"), ("ND", "ND")),))
    assert [v.name for v in op.variants()] == ["float16__x_ND", "float16__x_NCHW"]


def test_identical_combinations_are_an_error():
    op = _op(x=["float16", "float32", "float16"], y=["float16", "float32", "float16"])
    with pytest.raises(DuplicateVariant, match="combinations 0 and 2 are the same"):
        op.variants()


def test_a_manifest_repeating_a_combination_fails_at_its_line(workspace):
    dest = workspace.root / "packages" / "mixed_gamma"
    shutil.copytree(FIXTURES / "mixed_gamma", dest)
    manifest = dest / "opkg.yaml"
    text = manifest.read_text()
    text = text.replace("{name: gamma, dtypes: [float32, float16, float32]",
                        "{name: gamma, dtypes: [float32, float32, float32]")
    manifest.write_text(text)
    r = opkg("build", "packages/mixed_gamma", cwd=workspace.root)
    assert r.returncode != 0
    line = next(i for i, s in enumerate(text.splitlines(), 1) if "{name: x," in s)
    assert f"opkg.yaml:{line}" in r.stderr, r.stderr
    assert "dtype combinations 0 and 1 are the same" in r.stderr
    assert "remove the repeated one" in r.stderr


def test_every_combination_is_built_and_verified_under_its_own_name(workspace):
    shutil.copytree(FIXTURES / "mixed_gamma", workspace.root / "packages" / "mixed_gamma")
    r = opkg("build", "packages/mixed_gamma", "--json", "-j", "1", cwd=workspace.root)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    [target] = json.loads(r.stdout)["targets"]
    names = {"float16_float32__gamma_float32", "float16_float32__gamma_float16", "float32"}
    assert set(target["variants"]) == names
    out = workspace.root / "out/sim/mixed_gamma/Ascend910B1"
    for name in names:
        report = json.loads((out / name / "verification.json").read_text())
        assert report["passed"] and report["results"][0]["outputs"]["z"]["elements"] == 256
    q = opkg("query", "packages", "//packages/mixed_gamma", "--json", cwd=workspace.root, check=0)
    assert set(json.loads(q.stdout)["packages"][0]["variants"]) == names
