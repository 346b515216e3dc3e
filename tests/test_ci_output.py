"""What CI sees of `opkg build`/`opkg test`: per-case JSON against its documented schema,
JUnit XML, GitHub annotations, saved arrays of failing cases, case filters, -q/-v, notes."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import REPO, opkg

SCHEMAS = REPO / "docs" / "schema"
ONE_SOC = ("--soc", "Ascend910B1")

# float16: every case stops at a kernel assertion (a diagnostic with file:line);
# float32: 'small' is wrong (the golden adds 1 there), 'even' and 'uneven_split' pass
KERNEL_ASSERT = """\
    if constexpr (sizeof(DTYPE_X) == 2) {
        ascendc_assert(false, "half precision is not ready");
    }
"""
GOLDEN = """\
import numpy as np


def add_custom(x, y):
    z = x.astype(np.float64) + y.astype(np.float64)
    return z + 1 if x.size == 32 else z
"""


def validate(data: dict, schema_file: str) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    from referencing import Registry, Resource

    resources = [(p.name, Resource.from_contents(json.loads(p.read_text())))
                 for p in SCHEMAS.glob("*.schema.json")]
    registry = Registry().with_resources(
        resources + [(r.contents["$id"], r) for _, r in resources])
    schema = json.loads((SCHEMAS / schema_file).read_text())
    jsonschema.Draft202012Validator(schema, registry=registry).validate(data)


@pytest.fixture
def failing(workspace):
    pkg = workspace.copy_package("add_custom")
    kernel = pkg / "op_kernel" / "add_custom.cpp"
    text = kernel.read_text()
    anchor = "    GET_TILING_DATA(tilingData, tiling);\n"
    kernel.write_text(text.replace(anchor, anchor + KERNEL_ASSERT))
    (pkg / "golden.py").write_text(GOLDEN)
    line = kernel.read_text().splitlines().index(
        '        ascendc_assert(false, "half precision is not ready");') + 1
    return workspace, line


def test_failing_build_for_ci(failing, monkeypatch):
    workspace, assert_line = failing
    root = workspace.root
    monkeypatch.setenv("GITHUB_ACTIONS", "true")      # annotations without asking
    r = opkg("test", "//...", *ONE_SOC, "--json", "--junit-xml", "reports/junit.xml", cwd=root,
             check=1)

    # --json: every case, with its numbers, first wrong element and diagnostics
    data = json.loads(r.stdout)
    validate(data, "build.schema.json")
    assert data["schema_version"] == 1 and data["ok"] is False
    rows = {(c["variant"], c["case"]): c for c in data["cases"]}
    assert sorted(rows) == [(v, c) for v in ("float16", "float32")
                            for c in ("even", "small", "uneven_split")]
    assert rows["float32", "even"]["passed"] and rows["float32", "even"]["max_abs_error"] == 0
    small = rows["float32", "small"]
    assert not small["passed"] and small["mismatch_ratio"] == 1.0
    assert small["max_abs_error"] == pytest.approx(1.0)
    fm = small["first_mismatch"]
    assert fm["output"] == "z" and fm["index"] == [0]
    assert fm["expected"] == pytest.approx(fm["actual"] + 1)
    assert small["rerun"] == ("opkg test //packages/add_custom --soc Ascend910B1 "
                              "--variant float32 --case small")
    half = rows["float16", "even"]
    kernel = "packages/add_custom/op_kernel/add_custom.cpp"
    assert not half["passed"]
    assert {"file": kernel, "line": assert_line} == {
        k: half["diagnostics"][0][k] for k in ("file", "line")}

    # the failing case's arrays are next to the report, loadable, and what the report says
    saved = root / small["artifacts"]
    report = json.loads((saved.parent.parent / "verification.json").read_text())
    # the report (a cached, bundled output) names them relative to itself, not this checkout
    assert [c["artifacts"] for c in report["results"] if c["case"] == "small"] == ["failed/small"]
    x, y = np.load(saved / "input.x.npy"), np.load(saved / "input.y.npy")
    expected, actual = np.load(saved / "expected.npy"), np.load(saved / "actual.npy")
    assert actual.shape == expected.shape == x.shape == (32,)
    np.testing.assert_allclose(actual, x + y, rtol=1e-6)
    np.testing.assert_allclose(expected, actual + 1, atol=1e-6)
    assert rows["float32", "even"]["artifacts"] is None

    # JUnit: one testcase per case x variant x SoC, the failure text from the report
    suites = ET.parse(root / "reports" / "junit.xml").getroot()
    cases = {(c.get("classname"), c.get("name")): c for c in suites.iter("testcase")}
    assert len(cases) == 6 and suites.get("tests") == "6" and suites.get("failures") == "4"
    assert cases["//packages/add_custom@Ascend910B1", "float32/even"].find("failure") is None
    failure = cases["//packages/add_custom@Ascend910B1", "float32/small"].find("failure")
    assert "z[0] = " in failure.text and small["rerun"] in failure.text
    assert "half precision is not ready" in \
        cases["//packages/add_custom@Ascend910B1", "float16/small"].find("failure").text
    assert not list((root / "reports").glob(".*tmp*"))       # written atomically

    # annotations: the kernel diagnostic at its file:line; the mismatch on its case
    notes = [l for l in r.stderr.splitlines() if l.startswith("::error")]
    assert f"::error file={kernel},line={assert_line}," in "\n".join(notes)
    assert any("float32/small" in l and "z[0]" in l for l in notes)
    # the missing-CANN note: once, however many cases and variants
    assert r.stderr.count("no CANN toolkit installed") == 1

    # the report in words names the arrays and the command; that command runs the case alone
    r = opkg("test", "//...", *ONE_SOC, cwd=root, check=1)
    assert f"re-run //packages/add_custom Ascend910B1 float32/small: {small['rerun']}" \
        in r.stdout
    assert "packages/add_custom" in r.stdout and "failed/small" in r.stdout
    r = opkg(*small["rerun"].split()[1:], "--json", cwd=root, check=1)
    assert [(c["variant"], c["case"]) for c in json.loads(r.stdout)["cases"]] == \
        [("float32", "small")]
    # patterns; a selection that passes exits 0
    r = opkg("test", "//...", *ONE_SOC, "--variant", "float3*", "--case", "e*", "--case",
             "uneven_*", "--json", cwd=root, check=0)
    assert sorted(c["case"] for c in json.loads(r.stdout)["cases"]) == ["even", "uneven_split"]
    r = opkg("test", "//...", *ONE_SOC, "--case", "nosuch", cwd=root, check=2)
    assert "no verified case matches --case nosuch" in r.stderr
    # the hint names what there is to match
    assert "cases here: even, small, uneven_split; variants: float16, float32" in r.stderr

    # -q: only failures and the summary
    r = opkg("test", "//...", *ONE_SOC, "--variant", "float32", "-q", cwd=root, check=1)
    assert "FAIL" in r.stdout and "even" not in r.stdout and "1 target" in r.stdout
    monkeypatch.delenv("GITHUB_ACTIONS")
    r = opkg("test", "//...", *ONE_SOC, "--annotations", "none", cwd=root, check=1)
    assert "::error" not in r.stderr


def test_compile_and_manifest_errors_as_annotations(workspace):
    pkg = workspace.copy_package("add_custom")
    kernel = pkg / "op_kernel" / "add_custom.cpp"
    lines = kernel.read_text().splitlines()
    broken = lines.index("    op.Process();") + 1
    lines[broken - 1] = "    op.Process()   // missing semicolon"
    kernel.write_text("\n".join(lines) + "\n")
    r = opkg("build", "//...", "--soc", "Ascend910B1", "--annotations", "github",
             "--junit-xml", "junit.xml", "--json", "-v", cwd=workspace.root, check=1)
    # -v: each command as it runs (paths below the workspace shortened)
    assert any(l.startswith("  $ ") and "-c packages/add_custom/op_kernel/add_custom.cpp" in l
               for l in r.stderr.splitlines())
    data = json.loads(r.stdout)
    validate(data, "build.schema.json")
    diag = [d for f in data["failures"] for d in f["diagnostics"]]
    assert any(d["file"] == "packages/add_custom/op_kernel/add_custom.cpp"
               and d["line"] in (broken, broken + 1) for d in diag)
    assert "::error file=packages/add_custom/op_kernel/add_custom.cpp,line=" in r.stderr
    build_case = ET.parse(workspace.root / "junit.xml").getroot().find(".//testcase")
    assert build_case.get("name") == "build" and build_case.find("failure") is not None

    # a manifest error: at the manifest's line, in JSON too
    manifest = pkg / "opkg.yaml"
    manifest.write_text(manifest.read_text().replace("version: 1.0.0", "version: one"))
    r = opkg("build", "//...", "--annotations", "github", "--json", cwd=workspace.root, check=2)
    error = json.loads(r.stdout)
    validate(error, "error.schema.json")
    assert "::error file=packages/add_custom/opkg.yaml,line=2" in r.stderr


def test_usage_errors_print_json_and_k_is_no_longer_keep_going(tmp_path):
    r = opkg("test", "--no-such-flag", "--json", cwd=tmp_path, check=2)
    validate(json.loads(r.stdout), "error.schema.json")
    r = opkg("build", "-k", cwd=tmp_path, check=2)
    assert "No such option '-k'" in r.stderr
    r = opkg("build", "--help", cwd=tmp_path, check=0)
    assert "--keep-going" in r.stdout and "-k," not in r.stdout


def test_every_json_output_carries_the_schema_version(workspace):
    workspace.operator("addone")
    root = workspace.root
    for args in (("query", "packages"), ("query", "deps", "//packages/addone"),
                 ("cache", "stats"), ("toolchain", "list"), ("profile", "//...")):
        r = opkg(*args, "--json", cwd=root)
        assert json.loads(r.stdout)["schema_version"] == 1, args
    r = opkg("query", "deps", "//packages/nosuch", "--json", cwd=root, check=2)
    error = json.loads(r.stdout)
    validate(error, "error.schema.json")


def test_package_relative_diagnostics_and_notes_only_when_relevant(workspace):
    pkg = workspace.copy_package("add_custom")
    manifest = pkg / "opkg.yaml"
    text = manifest.read_text()
    # no CANN pin: the sim is the normal choice, nothing to note; a SoC the OpDef does not
    # declare: the OpDef check fails, naming op_host/add_custom.cpp relative to the package
    text = text.replace('toolchain: {cann: ">=8.0.RC2,<8.3", driver: ">=24.1.rc2"}\n', "")
    manifest.write_text(text.replace("socs: [Ascend910B1, Ascend310P3]",
                                     "socs: [Ascend910B1, Ascend310B1]"))
    r = opkg("build", "//...", "--annotations", "github", cwd=workspace.root, check=1)
    assert "pins no CANN version" not in r.stderr
    line = next(l for l in r.stderr.splitlines() if "AddConfig" in l and l.startswith("::"))
    assert line.startswith("::error file=packages/add_custom/op_host/add_custom.cpp,line=")
    r = opkg("build", "//...", "-v", cwd=workspace.root, check=1)
    assert r.stderr.count("sim: the package pins no CANN version") == 1
