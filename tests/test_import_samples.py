"""Operators written the way CANN's vector samples are (tests/fixtures/msopgen/<Op>/: the
prototype JSON msopgen takes, op_host/ with tiling + OpDef + InferShape and the
BEGIN_TILING_DATA_DEF header, op_kernel/ with the kernel class) import with `opkg import` and
build and verify on the sim toolchain with their sources unmodified.

Only the generated manifest's `verify:` section is replaced (the importer writes one default
case): every case below names the edge it exercises.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from tests.conftest import opkg

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "msopgen"
GOLDENS = FIXTURES / "goldens.py"


@dataclass(frozen=True)
class Sample:
    project: str          # directory under tests/fixtures/msopgen
    package: str          # --dest packages/<package>
    golden: str           # function in goldens.py
    cases: list           # verify.cases


_NORM_RANGES = {"x": [-2.0, 2.0], "gamma": [0.5, 1.5], "beta": [-0.5, 0.5]}


def _case(name, **kw):
    return {"name": name, **kw}


SAMPLES = [
    Sample("AddCustom", "add_custom", "add", [
        _case("one_element", shapes={"x": [1], "y": [1]}),
        # 33 elements: 3 (float16) or 5 (float32) blocks on as many cores, the last core
        # ending one element into its block
        _case("odd_33", shapes={"x": [33], "y": [33]}),
        # 48 cores share the blocks unevenly, each looping over 2 (float16) or 4 (float32)
        # double-buffered tiles; the tensor ends 3 elements into a block
        _case("multi_tile_ragged", shapes={"x": [300003], "y": [300003]}),
        _case("rows_odd", shapes={"x": [7, 129], "y": [7, 129]}),
    ]),
    Sample("SubCustom", "sub_custom", "sub", [
        _case("one_element", shapes={"x": [1], "y": [1]}),
        # every core has less than one repeat: a masked repeat only
        _case("odd_77", shapes={"x": [77], "y": [77]}),
        # 416 to 432 elements per core: 3 (float16) or 6 full repeats, then a masked one
        _case("repeats_and_mask", shapes={"x": [4, 5000], "y": [4, 5000]}),
        # 2 or 3 tiles of 4 KiB per core, the last core ending mid-block
        _case("multi_tile_ragged", shapes={"x": [100001], "y": [100001]},
              ranges={"x": [-100.0, 100.0], "y": [-100.0, 100.0]}),
    ]),
    Sample("LeakyReluCustom", "leaky_relu_custom", "leaky_relu", [
        _case("one_element", shapes={"x": [1]}, attrs={"negative_slope": 0.2}),
        _case("default_slope_odd", shapes={"x": [5, 37]}),
        # 2 KiB tiles: 3 (float16) or 5 (float32) per core; the last core ends mid-block
        _case("multi_tile_ragged", shapes={"x": [100003]}, attrs={"negative_slope": 0.5},
              ranges={"x": [-4.0, 4.0]}),
    ]),
    Sample("AddcdivCustom", "addcdiv_custom", "addcdiv", [
        _case("one_element", shapes={"input_data": [1], "x1": [1], "x2": [1]},
              attrs={"value": 0.5}, ranges={"x2": [0.5, 2.0]}),
        # 135 elements: 9 (float16) or 17 (float32) cores, the last one ending mid-block
        _case("odd_rows", shapes={"input_data": [3, 45], "x1": [3, 45], "x2": [3, 45]},
              attrs={"value": -1.5}, ranges={"x2": [0.5, 2.0]}),
        # two 1024-element tiles per core, negative divisors, the default value of 1
        _case("multi_tile_ragged", shapes={"input_data": [60013], "x1": [60013], "x2": [60013]},
              ranges={"x2": [-2.0, -0.5]}),
    ]),
    Sample("LayerNormCustom", "layer_norm_custom", "layer_norm", [
        # tiling key 1 (rows of whole 32-byte blocks): 50 rows on 48 cores, 2 take two rows
        _case("key1_rows_uneven", shapes={"x": [50, 64], "gamma": [64], "beta": [64]},
              ranges=_NORM_RANGES),
        # key 1 with several 4-row tiles per core, the last one short
        _case("key1_multi_tile", shapes={"x": [2, 163, 96], "gamma": [96], "beta": [96]},
              attrs={"epsilon": 1.0e-3}, ranges=_NORM_RANGES),
        # tiling key 2 (DataCopyPad, padded UB rows): one row of 1, odd columns
        _case("key2_single_element", shapes={"x": [1, 1], "gamma": [1], "beta": [1]}),
        _case("key2_odd_cols", shapes={"x": [213, 37], "gamma": [37], "beta": [37]},
              ranges=_NORM_RANGES),
    ]),
    Sample("PreLayerNormCustom", "pre_layer_norm_custom", "pre_layer_norm", [
        _case("one_row", shapes={"x": [1, 8], "y": [1, 8], "gamma": [8], "beta": [8]},
              ranges=_NORM_RANGES),
        # 7 rows of 45: fewer rows than cores, rows not whole blocks in either dtype
        _case("odd_cols", shapes={"x": [7, 45], "y": [7, 45], "gamma": [45], "beta": [45]},
              attrs={"epsilon": 1.0e-3}, ranges=_NORM_RANGES),
        # 101 rows on 48 cores (5 take three rows), rows spanning three vector repeats
        _case("rows_uneven", shapes={"x": [101, 130], "y": [101, 130], "gamma": [130],
                                     "beta": [130]}, ranges=_NORM_RANGES),
    ]),
    Sample("MoeSoftMaxTopkCustom", "moe_soft_max_topk_custom", "moe_soft_max_topk", [
        # k = every column of a single-column row
        _case("one_element", shapes={"x": [1, 1]}, attrs={"k": 1}),
        # default k = 4; 16-byte output rows (not whole blocks) on 50 rows over 48 cores
        _case("default_k", shapes={"x": [50, 16]}, ranges={"x": [-3.0, 3.0]}),
        # 130 experts span three vector repeats; k = 7; 3-D input
        _case("k7_odd_experts", shapes={"x": [2, 9, 130]}, attrs={"k": 7},
              ranges={"x": [-3.0, 3.0]}),
    ]),
]


def _replace_verify(manifest: Path, cases: list) -> None:
    """Swap the generated verify section for ours; everything above it stays byte-identical."""
    text = manifest.read_text()
    head, sep, generated = text.partition("\nverify:\n")
    assert sep, text
    verify = yaml.safe_load("verify:\n" + generated)["verify"]
    verify["cases"] = cases
    manifest.write_text(head + "\n" + yaml.safe_dump({"verify": verify}, sort_keys=False))
    assert manifest.read_text().startswith(head + "\nverify:\n")


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("sample", SAMPLES, ids=[s.project for s in SAMPLES])
def test_sample_style_project_imports_builds_and_verifies(sample, workspace):
    project = FIXTURES / sample.project
    r = opkg("import", str(project), "--dest", f"packages/{sample.package}", "--golden",
             f"{GOLDENS}:{sample.golden}", cwd=workspace.root, check=0)
    pkg = workspace.root / "packages" / sample.package
    # the sources are copied, not edited
    for sub in ("op_host", "op_kernel"):
        assert _files(pkg / sub) == _files(project / sub), sub
    _replace_verify(pkg / "opkg.yaml", sample.cases)

    package = workspace.load().packages[f"//packages/{sample.package}"]
    socs = list(package.socs)
    variants = [v.name for v in package.op.variants()]
    assert socs and all(f"-> {s}" in r.stdout for s in socs), r.stdout

    r = opkg("build", f"packages/{sample.package}", "--json", cwd=workspace.root)
    failures = []
    for soc in socs:
        for variant in variants:
            path = workspace.root / "out/sim" / sample.package / soc / variant / "verification.json"
            if not path.is_file():
                failures.append(f"{soc}/{variant}: no report\n{r.stdout[-3000:]}{r.stderr[-3000:]}")
                continue
            report = json.loads(path.read_text())
            assert [c["case"] for c in report["results"]] == [c["name"] for c in sample.cases] \
                or report["error"], report
            if not report["passed"]:
                failures.append(f"{soc}/{variant}: {report['error'] or ''}" + "".join(
                    f"\n  {c['case']}: " + (c["error"] or ", ".join(
                        f"{name} {o['mismatches']} of {o['elements']} off, first {o['first_mismatch']}"
                        for name, o in c["outputs"].items() if not o["passed"]))
                    for c in report["results"] if not c["passed"]))
    assert not failures, "\n".join(failures)
    assert r.returncode == 0, r.stdout + r.stderr
    # written the way CANN's samples are, they also pass the pipeline hazard check (the same
    # kernel libraries, verified again)
    r = opkg("test", f"packages/{sample.package}", "--sync-check", "--json", cwd=workspace.root)
    assert r.returncode == 0 and all(t["passed"] for t in json.loads(r.stdout)["targets"]), \
        r.stdout[-3000:] + r.stderr[-3000:]
