"""The compat harness's classification (bench/compat/run.py) of what opkg said: import refusals
taken from the refusal messages the import itself renders (so a reworded message shows here, not as
a silently unclassified row in a measurement), the first-error heuristics, what people recorded
winning, and --report-only merging results files (a later file wins)."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from opkg.importers import project
from opkg.core.errors import UsageError

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench" / "compat"))
import run as harness  # noqa: E402

sys.path.pop(0)


def tensor(name, dtypes=("float16",)):
    return {"name": name, "dtypes": list(dtypes), "formats": ["ND"] * len(dtypes)}


def refusal(inputs, outputs) -> str:
    """What `opkg import` prints on stderr when the import refuses this prototype."""
    op = {"type": "Odd", "inputs": inputs, "outputs": outputs, "attrs": []}
    with pytest.raises(UsageError) as exc:
        project._check_representable(op, Path("/corpus/src/math/odd"))
    return exc.value.render() + "\n"


def failed_import(text: str) -> dict:
    row = {"operator": "Odd", "imported": False, "compiled": None, "verified": None,
           "first_error": None, "classification": None, "detail": text}
    harness._import_failure(row, text)
    return row


def test_an_unsupported_dtype_is_an_import_gap_naming_the_dtype():
    row = failed_import(refusal([tensor("x")], [tensor("z", ["DT_DOUBLE"])]))
    assert row["first_error"] == "has dtype DT_DOUBLE, which opkg does not support"
    assert row["classification"] == "import gap: dtype DT_DOUBLE (opkg has no such dtype)"


def test_an_input_and_output_of_one_name_is_an_import_gap():
    # one name with the same dtypes is a ref tensor (imported); with different ones, refused
    row = failed_import(refusal([tensor("x")], [tensor("x", ["float32"])]))
    assert row["classification"].startswith("import gap: an input and an output share a name")
    assert "share the name 'x'" in row["first_error"]


def test_no_outputs_is_imported_now_and_old_refusals_ask_to_measure_again():
    op = {"type": "Odd", "inputs": [tensor("x")], "outputs": [], "attrs": []}
    project._check_representable(op, Path("/corpus/src/math/odd"))     # no refusal
    old = ("error: the OpDef of Odd (/corpus/src/math/odd/op_host) declares no outputs (it "
           "rewrites inputs in place); opkg needs at least one output\n")
    assert failed_import(old)["classification"] == (
        "import gap: no outputs, refused by an opkg before verify.inplace (measure again)")


def test_classify_reads_old_import_failures_again_and_recorded_classes_win():
    row = {"operator": "Odd", "imported": False, "compiled": None, "verified": None,
           "first_error": "x", "classification": "import gap",
           "detail": refusal([tensor("x")], [tensor("z", ["DT_DOUBLE"])])}
    harness.classify(row, {})
    assert row["classification"] == "import gap: dtype DT_DOUBLE (opkg has no such dtype)"
    harness.classify(row, {"Odd": {"class": "import gap", "note": "read by hand"}})
    assert row["classification"] == "import gap: read by hand"


def test_classify_guesses_from_a_compile_error_and_verified_rows_have_no_class():
    row = {"operator": "Odd", "imported": True, "compiled": False, "verified": False,
           "first_error": "odd.cpp:3: ‘cout’ is not a member of ‘std’", "classification": None}
    harness.classify(row, {})
    assert row["classification"] == "likely sim gap: CANN's headers bring in <iostream> (std::cout)"
    row["first_error"] = "something new"
    harness.classify(row, {})
    assert row["classification"] == "unclassified (does not compile)"
    row["verified"] = True
    harness.classify(row, {"Odd": {"class": "bug of the operator"}})
    assert row["classification"] is None


def test_a_few_mismatching_elements_are_counted_not_rounded_to_zero():
    # 2 bad elements of 262144 were reported as "0.00% of elements outside tolerance"
    from opkg.verify.compare import compare

    import numpy as np
    want = np.arange(262144, dtype=np.int16)
    got = want.copy()
    got[[7, 9000]] += 1
    text = harness.mismatch_text("y", compare(got, want, 0.0, 0.0, 0.0))
    assert text.startswith("y mismatches (2 of 262144 elements outside tolerance, 0.0008%)")
    assert "first at [7]: 8.0, expected 7.0" in text
    few = want[:4].copy()
    few[1:] += 1
    many = harness.mismatch_text("y", compare(few, want[:4], 0.0, 0.0, 0.0))
    assert many.startswith("y mismatches (3 of 4 elements outside tolerance, 75.00%)")


def test_report_only_merges_results_files_the_later_one_winning(tmp_path):
    corpus = tmp_path / "corpus"
    shutil.copytree(REPO / "tests" / "fixtures" / "cann_ops_layout", corpus,
                    ignore=shutil.ignore_patterns("scale_each"))
    for d in ("op_host", "op_kernel"):      # a second project, in no results file
        (corpus / "src" / "math" / "unmeasured" / d).mkdir(parents=True)

    def results(name, verified, date):
        row = {"operator": "scale_add", "path": "src/math/scale_add", "imported": True,
               "compiled": True, "verified": verified, "classification": None, "notes": [],
               "warnings": [], "variants": {},
               "first_error": None if verified else "Ascend910B1/float16 c: z mismatches"}
        path = tmp_path / name
        path.write_text(json.dumps({"commit": "abc", "date": date, "rows": [row]}))
        return path

    old, new = results("old.json", False, "2026-01-01"), results("new.json", True, "2026-01-02")
    out, doc = tmp_path / "results", tmp_path / "compat.md"
    common = ["--corpus", str(corpus), "--results", str(out), "--doc", str(doc),
              "--classification", str(tmp_path / "none.yaml")]
    assert harness.main(common + ["--report-only", str(old), str(new)]) == 0
    rows = {r["operator"]: r for r in json.loads(
        (out / "compat-cann-ops-2026-01-02.json").read_text())["rows"]}
    assert rows["scale_add"]["verified"] is True
    assert rows["unmeasured"]["classification"] == "not run in this measurement"
    assert "**1/2 verified**" in doc.read_text()

    assert harness.main(common + ["--report-only", str(new), str(old)]) == 0
    rows = {r["operator"]: r for r in json.loads(
        (out / "compat-cann-ops-2026-01-01.json").read_text())["rows"]}
    assert rows["scale_add"]["verified"] is False
    assert rows["scale_add"]["classification"] == "unclassified (does not verify)"
