"""`opkg import` of an OpDef that lists several format combinations for one dtype combination
(cann-ops' AddSigmoidMulReduceSumD: FRACTAL_NZ, NHWC and ND, all float16). opkg builds one
variant per dtype combination and the sim gives every tensor its origin shape as storage shape,
so import keeps the combination the sim describes truly (all ND here), says in the manifest
which it left out, and the tiling sees the kept formats. The project is our own fixture
tests/fixtures/format_pick_add in cann-ops' layout: its tiling fails unless x, y and z are ND."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import yaml

from opkg.verify.prototype import runnable_combinations
from tests.conftest import opkg

FIXTURE = Path(__file__).parent / "fixtures" / "format_pick_add"


def _t(name, dtypes, formats):
    return {"name": name, "dtypes": dtypes, "formats": formats, "param_type": "required"}


def test_of_one_dtype_combination_the_fewest_blocked_then_non_nd_formats_are_kept():
    ins = [_t("a", ["float16"] * 3 + ["float32"], ["FRACTAL_NZ", "NHWC", "ND", "NHWC"]),
           _t("b", ["float16"] * 3 + ["float32"], ["NHWC", "NHWC", "ND", "NHWC"])]
    outs = [_t("c", ["float16"] * 3 + ["float32"], ["FRACTAL_NZ", "NHWC", "ND", "NHWC"])]
    kept, dropped = runnable_combinations(ins, outs)
    assert kept == [2, 3]          # float16: the all-ND one; float32: its only one, NHWC kept
    assert len(dropped) == 2
    assert dropped[0].startswith("position 0 (float16: a FRACTAL_NZ, b NHWC, c FRACTAL_NZ)")
    assert "FRACTAL_NZ storage shapes differ" in dropped[0]
    assert "more non-ND formats" in dropped[1]
    # the dropped ones are named in the OpDef's order (cann-ops' Reciprocal: ND, NCHW, NHWC)
    _, dropped = runnable_combinations(
        [_t("x", ["float16", "float32"] * 3, ["ND"] * 2 + ["NCHW"] * 2 + ["NHWC"] * 2)], [])
    assert [d.split(" (")[0] for d in dropped] == [f"position {i}" for i in (2, 3, 4, 5)]
    # distinct dtype combinations: nothing dropped, whatever the formats
    assert runnable_combinations([_t("a", ["float16", "float32"], ["FRACTAL_NZ", "ND"])],
                                 []) == ([0, 1], [])


def test_import_keeps_the_nd_combination_and_the_tiling_sees_nd(workspace, tmp_path):
    project = tmp_path / "src" / "math" / "format_pick_add"
    for d in ("op_host", "op_kernel"):
        shutil.copytree(FIXTURE / d, project / d)
    r = opkg("import", str(project), "--dest", "packages/format_pick_add", cwd=workspace.root,
             check=0)
    assert "format combination left out: position 0" in r.stdout + r.stderr
    pkg = workspace.root / "packages" / "format_pick_add"
    text = (pkg / "opkg.yaml").read_text()
    op = yaml.safe_load(text)["op"]
    assert [(t["name"], t["dtypes"], t["formats"]) for t in op["inputs"] + op["outputs"]] == [
        ("x", ["float16", "float32"], ["ND"]), ("y", ["float16", "float32"], ["ND"]),
        ("z", ["float16", "float32"], ["ND"])]
    assert "#   position 0 (float16: x FRACTAL_NZ, z FRACTAL_NZ): kept position 1" in text
    shutil.copyfile(FIXTURE / "golden.py", pkg / "golden.py")    # the stub, written
    r = opkg("build", "packages/format_pick_add", "--json", cwd=workspace.root, check=0)
    assert r.returncode == 0, r.stdout + r.stderr     # the OpDef check agrees; tiling accepts ND
    result = json.loads(r.stdout)
    assert {v for t in result["targets"] for v in t["variants"]} == {"float16", "float32"}
