"""A dtype variant no case is written for (an ops repository's ttk table with no row of its
dtype combination) is untested: it does not run rows written for other dtypes (their attrs and
ranges are another dtype's), its status says why, and a run that bundles nothing does not
compile its kernel (manifest.cases_for). Measured on the real add_custom example."""

from __future__ import annotations

import json
import shutil

from tests.conftest import opkg
from tests.test_refused_cases import SOC, _ws

OWN = "  cases:\n    - {name: only32, shapes: {x: [64], y: [64]}, dtypes: {x: float32}}\n"


def test_a_variant_without_a_case_of_its_own_is_untested(workspace):
    root = _ws(workspace, OWN)
    r = opkg("build", "//...", *SOC, "--json", cwd=root, check=1)
    variants = json.loads(r.stdout)["targets"][0]["variants"]
    assert variants["float32"]["status"] == "PASS"
    assert variants["float16"]["status"] == "UNTESTED" and not variants["float16"]["passed"]
    assert variants["float16"]["why"].startswith(
        "untested: none of the 1 cases is written for its dtypes (they are written for x float32)")
    r = opkg("test", "//...", *SOC, cwd=root, check=1)
    assert "UNTESTED untested: none of the 1 cases" in r.stdout and "only32" in r.stdout


def test_an_untested_variant_is_not_compiled_by_a_test_run(workspace):
    root = _ws(workspace, OWN)
    r = opkg("test", "//...", *SOC, "--json", cwd=root, check=1)
    assert {(c["variant"], c["case"]) for c in json.loads(r.stdout)["cases"]} == {
        ("float32", "only32")}
    kernels = {p.parent.name for p in (root / "out" / "sim").rglob("kernel.o")}
    assert kernels == {"float32"}


def test_a_case_for_any_dtype_leaves_no_variant_untested(workspace):
    root = _ws(workspace, OWN + "    - {name: any, shapes: {x: [32], y: [32]}}\n")
    r = opkg("test", "//...", *SOC, "--json", cwd=root)
    assert {(c["variant"], c["case"]) for c in json.loads(r.stdout)["cases"]} == {
        ("float32", "only32"), ("float32", "any"), ("float16", "any")}


def test_a_build_compiles_no_untested_variant_and_says_why_it_bundles_nothing(workspace):
    root = _ws(workspace, OWN)
    r = opkg("build", "//...", *SOC, cwd=root, check=1)
    # the tested variant is compiled and verified; the untested one is not compiled, and the
    # operator gets no bundle, the output saying why
    kernels = {p.parent.name for p in (root / "out" / "sim").rglob("kernel.o")}
    assert kernels == {"float32"}
    assert not list((root / "out").rglob("*.opkg.tgz"))
    assert ("1 of 2 dtype variants are untested (no case is written for their dtypes: "
            "float16); their kernels were not compiled") in r.stdout
    data = json.loads(opkg("build", "//...", *SOC, "--json", cwd=root, check=1).stdout)
    assert data["targets"][0]["bundle"] is None and not data["ok"]


def test_a_test_run_compiles_only_the_selected_variants(workspace):
    both = OWN + "    - {name: only16, shapes: {x: [64], y: [64]}, dtypes: {x: float16}}\n"
    root = _ws(workspace, both)
    r = opkg("test", "//...", *SOC, "--variant", "float16", "--json", cwd=root)
    assert {(c["variant"], c["case"]) for c in json.loads(r.stdout)["cases"]} == {
        ("float16", "only16")}
    assert {p.parent.name for p in (root / "out" / "sim").rglob("kernel.o")} == {"float16"}
    # -k likewise: a variant none of whose cases is selected is not compiled
    shutil.rmtree(root / "out")
    r = opkg("test", "//...", *SOC, "-k", "only32", "--json", cwd=root)
    assert {(c["variant"], c["case"]) for c in json.loads(r.stdout)["cases"]} == {
        ("float32", "only32")}
    assert {p.parent.name for p in (root / "out" / "sim").rglob("kernel.o")} == {"float32"}
