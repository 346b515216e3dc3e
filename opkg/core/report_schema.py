"""The shape of a verification report (verification.json, written by opkg/verify/runner.py).

Reports are read back from the build cache, from `out/` (a CI artefact, maybe from another
machine) and from bundles. A digest proves the bytes are the ones stored, not that they are a
report: every reader checks this first, and a report that fails is treated as missing (the
build evicts it and verifies again), never indexed into.
"""

from __future__ import annotations

import json
from pathlib import Path

_NUMBER = (int, float)


def _is(value, types) -> bool:
    return isinstance(value, types) and not (isinstance(value, bool) and bool not in
                                            (types if isinstance(types, tuple) else (types,)))


def report_problem(report) -> str | None:
    """What is wrong with `report` as a verification report, or None."""
    if not isinstance(report, dict):
        return "not a JSON object"
    for key, types in (("passed", bool), ("cases", int), ("failed", int), ("results", list),
                       ("variant", str), ("soc", str), ("package", str)):
        if key not in report:
            return f"no '{key}'"
        if not _is(report[key], types):
            return f"'{key}' is a {type(report[key]).__name__}"
    if not (report.get("error") is None or isinstance(report["error"], str)):
        return "'error' is neither text nor null"
    if not 0 <= report["failed"] <= report["cases"] or len(report["results"]) > report["cases"]:
        return (f"{report['failed']} failed and {len(report['results'])} result(s) of "
                f"{report['cases']} case(s)")
    for key in ("max_abs_error", "max_rel_error", "mismatch_ratio"):
        if report.get(key) is not None and not _is(report[key], _NUMBER):
            return f"'{key}' is not a number"
    for i, case in enumerate(report["results"]):
        if not (isinstance(case, dict) and isinstance(case.get("case"), str)
                and isinstance(case.get("passed"), bool)
                and (case.get("error") is None or isinstance(case["error"], str))
                and isinstance(case.get("outputs"), dict)
                and all(isinstance(k, str) and isinstance(v, dict)
                        for k, v in case["outputs"].items())):
            return f"result #{i} is not a case record"
    return None


def timings_path(report_path) -> Path:
    """Where the verifier keeps each case's wall time: not in the report, which stays the same
    for the same inputs so that what is keyed on it (the bundle step) hits every cache."""
    return Path(report_path).with_name("timings.json")


def read_report(path) -> tuple[dict | None, str | None]:
    """(report, None), or (None, why) when the file is unreadable or not a report; each case
    has its `seconds` back when the timings beside the report are readable."""
    try:
        report = json.loads(Path(path).read_bytes())
    except (OSError, ValueError, RecursionError) as exc:
        return None, f"unreadable: {exc}"
    problem = report_problem(report)
    if problem:
        return None, problem
    try:
        timings = json.loads(timings_path(path).read_bytes())
    except (OSError, ValueError, RecursionError):
        timings = {}        # informational only: a report without them is still whole
    if isinstance(timings, dict):
        for case in report["results"]:
            if _is(timings.get(case["case"]), _NUMBER):
                case["seconds"] = timings[case["case"]]
    return report, None
