"""bench/compat/repository.py, the corpus run over an ops repository: on the miniature
repository written here (tests/fixtures/ops_repo, ops-nn's layout) always, and on a checkout of
hicann/ops-nn when one is at hand (opt-in: $OPKG_OPS_NN and $OPKG_OPBASE, or the mirrors the
`fetch` tool keeps under /work/.mirror)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
HARNESS = REPO / "bench" / "compat" / "repository.py"
FIXTURES = REPO / "tests" / "fixtures"
MIRRORS = Path("/work/.mirror")


def _git_checkout(src: Path, dest: Path) -> Path:
    shutil.copytree(src, dest)
    subprocess.run(["git", "init", "-q", str(dest)], check=True)
    subprocess.run(["git", "-C", str(dest), "add", "."], check=True)
    subprocess.run(["git", "-C", str(dest), "-c", "user.name=t", "-c", "user.email=t@t",
                    "commit", "-qm", "fixture"], check=True)
    return dest


def _harness(*args, tmp: Path):
    return subprocess.run([sys.executable, str(HARNESS), *args, "--work", str(tmp / "work"),
                           "--results", str(tmp / "results"), "--doc", str(tmp / "compat.md")],
                          capture_output=True, text=True, timeout=3000)


def test_the_harness_on_a_miniature_repository_resumes(tmp_path):
    repo = _git_checkout(FIXTURES / "ops_repo", tmp_path / "ops-mini")
    base = _git_checkout(FIXTURES / "ops_base", tmp_path / "ops-base")
    r = _harness("--repo", str(repo), "--opbase", str(base), tmp=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "ops_mini: 1/1 verified of those with a golden (1 measured)" in r.stdout
    rows = json.loads(next((tmp_path / "results").glob("compat-ops_mini-*.json")).read_text())["rows"]
    assert [(x["path"], x["imported"], x["kernel_compiled"], x["verified"], x["cases_from"])
            for x in rows] == [("activation/leaky_scale", True, True, True,
                                "tests/st/ttk_kernel_leaky_scale.csv")]
    doc = (tmp_path / "compat.md").read_text()
    assert "<!-- compat:ops_mini:begin -->" in doc
    assert "| activation | 1 | 1 | 1 | 1 | 1 | 1/1 |" in doc
    # warm: nothing measured again (same repository commit, opkg commit and SoC)
    start = time.monotonic()
    r = _harness("--repo", str(repo), "--opbase", str(base), tmp=tmp_path)
    assert r.returncode == 0 and "1 measured already" in r.stderr and "0 to measure" in r.stderr
    assert time.monotonic() - start < 60


def test_goldens_needing_a_missing_package_are_counted_before_the_run(tmp_path):
    """The harness says up front how many goldens import a package opkg's Python lacks (torch
    for most of ops-nn's), instead of each operator failing on it after its build."""
    sys.path.insert(0, str(HARNESS.parent))
    try:
        import repository as harness
    finally:
        sys.path.pop(0)
    ops = []
    for name, imports in (("a", "import numpy as np"), ("b", "import opkg_absent_pkg"),
                          ("c", "from opkg_absent_pkg import nn\nimport numpy")):
        golden = tmp_path / name / "tests" / "assets" / "golden.py"
        golden.parent.mkdir(parents=True)
        golden.write_text(f"{imports}\n__golden__ = {{'kernel': {{'{name}': 'g'}}}}\n"
                          "def g(x):\n    return x\n")
        ops.append(tmp_path / name)
    assert harness.missing_packages(ops) == {"opkg_absent_pkg": 2}


def test_a_sample_of_the_operators_with_a_golden(tmp_path):
    sys.path.insert(0, str(HARNESS.parent))
    try:
        import repository as harness
    finally:
        sys.path.pop(0)
    ops = []
    for i in range(5):
        op = tmp_path / "fam" / f"op{i}"
        (op / "tests" / "assets").mkdir(parents=True)
        if i != 1:     # op1 has no golden
            (op / "tests" / "assets" / "golden.py").write_text(
                f"__golden__ = {{'kernel': {{'op{i}': 'g'}}}}\ndef g(x):\n    return x\n")
        ops.append(op)
    names = lambda ds: [d.name for d in ds]      # noqa: E731
    assert names(harness.select(ops, tmp_path, None, 2, None, with_golden=True)) == ["op0", "op3"]
    assert names(harness.select(ops, tmp_path, None, 2, None)) == ["op0", "op2", "op4"]
    # a second sample, disjoint from the first, and one family left out after the draw
    assert names(harness.select(ops, tmp_path, None, 2, None, with_golden=True,
                                start=1)) == ["op2", "op4"]
    other = tmp_path / "skipped" / "op5"
    (other / "tests" / "assets").mkdir(parents=True)
    (other / "tests" / "assets" / "golden.py").write_text(
        "__golden__ = {'kernel': {'op5': 'g'}}\ndef g(x):\n    return x\n")
    assert names(harness.select([*ops, other], tmp_path, None, 2, None, with_golden=True,
                                skip_families=("skipped",))) == ["op0", "op3"]


def _real_checkouts(tmp_path: Path):
    ops, base = os.environ.get("OPKG_OPS_NN"), os.environ.get("OPKG_OPBASE")
    if ops and base:
        return Path(ops), Path(base)
    mirrors = [MIRRORS / "hicann+ops-nn" / "repo", MIRRORS / "hicann+opbase" / "repo"]
    if not all(m.is_dir() for m in mirrors):
        pytest.skip("no ops-nn/opbase checkout: set OPKG_OPS_NN and OPKG_OPBASE (opt-in)")
    out = []
    for mirror, name in zip(mirrors, ("ops-nn", "opbase")):
        subprocess.run(["git", "clone", "-q", "--shared", str(mirror), str(tmp_path / name)],
                       check=True)
        out.append(tmp_path / name)
    return tuple(out)


def test_the_harness_on_ops_nn(tmp_path):
    """One real operator through the harness: imported from the checkout as its CMake says,
    built, and its row says how far it got (with its first error when it did not verify)."""
    ops, base = _real_checkouts(tmp_path)
    r = _harness("--repo", str(ops), "--opbase", str(base), "--only", "rms_norm", tmp=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    rows = json.loads(next((tmp_path / "results").glob("compat-ops_nn-*.json")).read_text())["rows"]
    (row,) = rows
    assert row["path"] == "norm/rms_norm" and row["imported"] and row["golden"]
    assert row["verified"] or row["first_error"], row
    manifest = (tmp_path / "work" / "packages" / "ops_nn" / "norm" / "rms_norm" / "opkg.yaml").read_text()
    assert '"@ops_nn//norm/rms_norm/op_host/rms_norm_tiling.cpp"' in manifest
    assert "golden_convention: ttk" in manifest


def test_first_errors_the_harness_names_a_class_for():
    sys.path.insert(0, str(HARNESS.parent))
    try:
        import repository as harness
    finally:
        sys.path.pop(0)

    def cls(error):
        row = {"operator": "op", "imported": True, "verified": False, "classification": None,
               "first_error": error, "compiled": False, "kernel_compiled": None}
        harness.classify_row(row, False, {})
        return row["classification"]

    assert cls("t.cpp:255: no match for ‘operator==’ (operand types are ‘const "
               "gert::StorageShape’ and ‘const gert::StorageShape’)") == (
        "likely sim gap: gert::StorageShape::operator== missing")
    assert "not snake_case(Sparse4to2QuantMatmul)" in cls(
        "manifest op.type: kernel entry mismatch: op type 'Sparse4to2QuantMatmul' needs a "
        "kernel function named 'sparse4to2_quant_matmul', but s.cpp:41 defines 'x'")


def test_a_failure_on_the_placeholder_case_is_no_case_derivable():
    """An operator verified only on the import's placeholder case (no ttk table of any
    architecture, no example) is said to have no derivable case, not counted as the kernel's
    failure; one whose case came from a table keeps the error's class."""
    sys.path.insert(0, str(HARNESS.parent))
    try:
        import repository as harness
    finally:
        sys.path.pop(0)

    def cls(cases_from, recorded=None):
        row = {"operator": "op", "imported": True, "verified": False, "golden": True,
               "classification": None, "first_error": "Ascend910B1/float16: case default: "
               "ValueError: updates total elements", "compiled": True, "kernel_compiled": True,
               "cases_from": cases_from}
        harness.classify_row(row, False, recorded or {})
        return row["classification"]

    assert cls(None).startswith("no case derivable: no ttk table of any architecture")
    assert cls("tests/st/arch35/ttk_kernel_op.csv (another architecture's table: its shapes, "
               "attrs and ranges)") == "unclassified (does not verify)"
    assert cls(None, {"op": {"class": "sim gap", "note": "x"}}) == "sim gap: x"


def test_a_variant_the_socs_tiling_refused_on_every_case_is_left_out(tmp_path):
    """An operator verifies when every variant passes but those whose every case (each a row of
    another architecture's table) the operator's tiling refused, and one passes at least; a
    variant that failed, or only refused variants, do not verify it."""
    sys.path.insert(0, str(HARNESS.parent))
    try:
        import repository as harness
    finally:
        sys.path.pop(0)

    passed = {"passed": True, "status": "PASS", "cases": 2, "failed": 0, "refused": 1}
    refused = {"passed": False, "status": "REFUSED", "cases": 1, "failed": 1, "refused": 1,
               "why": "no case ran on Ascend910B1: the operator's tiling refused all 1"}
    failed = {"passed": False, "status": "FAILED", "cases": 1, "failed": 1}

    def verified(*variants):
        row = {}
        harness.read_build(row, {"ok": False, "failures": [], "targets": [
            {"soc": "Ascend910B1", "variants": {f"v{k}": v for k, v in enumerate(variants)}}]},
            tmp_path, "op")
        return row["verified"], row.get("refused")

    assert verified(passed, refused) == (True, {"cases": 2, "variants": ["Ascend910B1/v1"]})
    assert verified(passed, refused, failed)[0] is False
    assert verified(refused)[0] is False
    assert verified(passed, failed)[0] is False
