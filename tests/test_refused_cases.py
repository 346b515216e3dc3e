"""Cases the operator may refuse on a SoC (`if_supported`: a row of another architecture's
table, which the repository's test tool runs on that architecture only): where the operator's
own tiling function returns failure for one, the case is skipped with the tiling's words; a
variant whose own rows are all refused runs the others; a variant where nothing ran is not a
pass (REFUSED). Measured on the real add_custom example, whose tiling refuses an element count
that is not a multiple of 16 (float16) or 8 (float32)."""

from __future__ import annotations

import json

from tests.conftest import opkg

SOC = ("--soc", "Ascend910B1")
BORROWED = "a row of tests/st/arch35/t.csv, another architecture's table"
CASES = """\
  cases:
    - {name: ragged16, shapes: {x: [7], y: [7]}, dtypes: {x: float16}, if_supported: "%s"}
    - {name: ragged32, shapes: {x: [9], y: [9]}, dtypes: {x: float32}, if_supported: "%s"}
    - {name: fine32, shapes: {x: [64], y: [64]}, dtypes: {x: float32}, if_supported: "%s"}
""" % (BORROWED, BORROWED, BORROWED)


def _ws(workspace, cases: str):
    pkg = workspace.copy_package("add_custom")
    manifest = pkg / "opkg.yaml"
    text = manifest.read_text().replace(
        'toolchain: {cann: ">=8.0.RC2,<8.3", driver: ">=24.1.rc2"}\n', "")
    text = text.replace("socs: [Ascend910B1, Ascend310P3]", "socs: [Ascend910B1]")
    start, end = text.index("  cases:\n"), text.index("  # An add is one")
    manifest.write_text(text[:start] + cases + text[end:])
    return workspace.root


def test_a_refused_case_is_skipped_and_a_variant_falls_back(workspace):
    root = _ws(workspace, CASES)
    r = opkg("test", "//...", *SOC, "--json", cwd=root, check=0)
    got = {(c["variant"], c["case"]): c for c in json.loads(r.stdout)["cases"]}
    # float32: its own ragged row refused, its other row passes
    assert got["float32", "ragged32"]["outcome"] == "refused"
    assert "the tiling function for AddCustom returned failure" in got["float32", "ragged32"][
        "refused"] and BORROWED in got["float32", "ragged32"]["refused"]
    assert "multiple of 8" in got["float32", "ragged32"]["refused"]   # the tiling's own words
    assert got["float32", "fine32"]["outcome"] == "pass"
    # float16: its only row refused, so it runs the others (written for float32) as a
    # variant without rows of its own would; ragged32 (9 elements) is refused there too
    assert got["float16", "ragged16"]["outcome"] == "refused"
    assert got["float16", "ragged32"]["outcome"] == "refused"
    assert got["float16", "fine32"]["outcome"] == "pass"
    r = opkg("build", "//...", *SOC, "--json", cwd=root, check=0)
    variants = json.loads(r.stdout)["targets"][0]["variants"]
    assert variants["float16"]["status"] == "PASS" and variants["float16"]["refused"] == 2
    r = opkg("test", "//...", *SOC, cwd=root, check=0)
    assert "refused: the tiling function for AddCustom returned failure" in r.stdout


def test_a_variant_where_the_soc_refused_every_case_is_not_a_pass(workspace):
    root = _ws(workspace, "  cases:\n"
               f'    - {{name: ragged, shapes: {{x: [7], y: [7]}}, if_supported: "{BORROWED}"}}\n')
    r = opkg("build", "//...", *SOC, "--json", cwd=root, check=1)
    variants = json.loads(r.stdout)["targets"][0]["variants"]
    for v in ("float16", "float32"):
        assert variants[v]["status"] == "REFUSED" and not variants[v]["passed"]
        assert variants[v]["why"].startswith("no case ran on Ascend910B1: the operator's "
                                             "tiling refused all 1")


def test_a_refusal_of_a_case_that_must_run_fails_it(workspace):
    root = _ws(workspace, "  cases:\n    - {name: ragged, shapes: {x: [7], y: [7]}}\n")
    r = opkg("test", "//...", *SOC, "--json", cwd=root, check=1)
    assert {c["outcome"] for c in json.loads(r.stdout)["cases"]} == {"fail"}
