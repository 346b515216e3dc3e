"""What CI reads from a build: per-case JSON rows, JUnit XML and workflow annotations.

Everything here is derived from a BuildResult (the reports the build wrote) or an OpkgError;
nothing decides pass or fail. One row per (package, SoC, variant, case) is the unit all three
formats share, so JSON, JUnit and the terminal never disagree about what ran.
"""

from __future__ import annotations

import fnmatch
import os
import re
from pathlib import Path

from opkg.verify.select import rerun_command

# Bumped when a field of any --json output changes meaning or disappears (adding is free).
# docs/schema/*.schema.json describe version 1.
SCHEMA_VERSION = 1

# `file:line[:col]: message`, as g++ and the sim's kernel diagnostics write them
_DIAG = re.compile(r"^(?P<file>[^\s:][^:\n]*):(?P<line>\d+)(?::(?P<column>\d+))?:\s*"
                   r"(?:(?P<severity>error|warning|fatal error|note):\s*)?(?P<message>.+)$")


def with_schema(data):
    """Every JSON document opkg prints carries the schema version (a bare list is wrapped)."""
    if isinstance(data, dict):
        return {"schema_version": SCHEMA_VERSION, **data}
    return {"schema_version": SCHEMA_VERSION, "items": data}


def emit_json(data, sort_keys: bool = False) -> None:
    """Print a JSON document (indented, with its schema version) on stdout. Registry and
    toolchain commands sort its keys; the build and test documents keep their order."""
    import json

    import click

    click.echo(json.dumps(with_schema(data), indent=2, sort_keys=sort_keys))


# ---- per-case rows -------------------------------------------------------------------------

class CaseFilter:
    """--case and --variant: shell-style patterns (fnmatch); empty means everything."""

    def __init__(self, cases=(), variants=()):
        self.cases = tuple(cases or ())
        self.variants = tuple(variants or ())

    def __bool__(self) -> bool:
        return bool(self.cases or self.variants)

    def variant(self, name: str) -> bool:
        return not self.variants or any(fnmatch.fnmatchcase(name, p) for p in self.variants)

    def case(self, name: str) -> bool:
        return not self.cases or any(fnmatch.fnmatchcase(name, p) for p in self.cases)


def diagnostics(text: str | None, root=None, package: str | None = None) -> list[dict]:
    """The `file:line` diagnostics in a compiler's or the sim's output, paths made relative to
    the workspace root (CI annotations name files relative to the checkout). Some checks name
    files relative to their package (`op_host/x.cpp`): those get the package's directory."""
    found = []
    for line in (text or "").splitlines():
        m = _DIAG.match(line.strip())
        if not m or m["severity"] == "note":
            continue
        found.append({"file": _rel(_in_package(m["file"], root, package), root),
                      "line": int(m["line"]),
                      "column": int(m["column"]) if m["column"] else None,
                      "severity": "warning" if m["severity"] == "warning" else "error",
                      "message": m["message"].strip()})
    return found




def case_rows(result, only: CaseFilter | None = None, root=None) -> list[dict]:
    """One row per (target, variant, case) the build verified, in report order. A variant
    whose verification failed as a whole (a crash, a missing golden) is one row, case None."""
    only = only or CaseFilter()
    rows = []
    report_paths = {pt.id: pt.reports for pt in getattr(getattr(result, "plan", None),
                                                        "targets", [])}
    for t in result.targets:
        for variant, report in sorted(t.reports.items()):
            if not only.variant(variant):
                continue
            base = {"target": t.id, "package": t.package, "soc": t.soc,
                    "toolchain": t.toolchain, "variant": variant}
            if report.get("error") and not report.get("results"):
                if only.cases and not only.case("*"):
                    continue
                rows.append({**base, "case": None, "passed": False, "outcome": "error",
                             **_WHOLE_VARIANT, "error": report["error"],
                             "diagnostics": diagnostics(report["error"], root, t.package),
                             "rerun": rerun_command(t.package, t.soc, variant, None)})
                continue
            for case in report.get("results", []):
                if not only.case(case["case"]):
                    continue
                rows.append({**base, "case": case["case"], **_case_numbers(case),
                             "passed": bool(case["passed"]),
                             "outcome": case.get("outcome") or (
                                 "pass" if case["passed"] else "fail"),
                             "xfail": case.get("xfail"), "error": case.get("error"),
                             **({"refused": case["refused"]} if case.get("refused") else {}),
                             "diagnostics": diagnostics(case.get("error"), root, t.package),
                             "tolerance": {k: {x: o.get(x) for x in ("rtol", "atol",
                                                                     "error_ratio")}
                                           for k, o in case.get("outputs", {}).items()},
                             "host": case.get("host") or {}, "seconds": case.get("seconds"),
                             "artifacts": _artifacts(case.get("artifacts"),
                                                     report_paths.get(t.id, {}).get(variant),
                                                     root),
                             "rerun": rerun_command(t.package, t.soc, variant, case["case"])})
        # a declared variant this build did not verify: a failing row, never a silent gap
        for variant, why in sorted((getattr(t, "not_run", None) or {}).items()):
            if not only.variant(variant) or (only.cases and not only.case("*")):
                continue
            rows.append({"target": t.id, "package": t.package, "soc": t.soc,
                         "toolchain": t.toolchain, "variant": variant, "case": None,
                         "passed": False, "outcome": "not run", **_WHOLE_VARIANT,
                         "error": f"not run: {why}", "diagnostics": [],
                         "rerun": rerun_command(t.package, t.soc, variant, None)})
    return rows


# the fields of a row that stands for a whole variant (no case of it has a result)
_WHOLE_VARIANT = {"max_abs_error": None, "max_rel_error": None, "mismatch_ratio": None,
                  "first_mismatch": None, "xfail": None, "tolerance": {}, "host": {},
                  "seconds": None, "artifacts": None}


def _artifacts(rel: str | None, report: str | None, root) -> str | None:
    """The saved arrays of a case, if this checkout has them (a report restored from the cache
    comes without them)."""
    if not rel or not report:
        return None
    d = Path(report).parent / rel
    return _rel(str(d), root) if d.is_dir() else None


def _case_numbers(case: dict) -> dict:
    outs = case.get("outputs", {})

    def worst(key):
        values = [o[key] for o in outs.values() if o.get(key) is not None]
        if not values:
            return None
        # the report writes non-finite numbers as strings ("inf", "nan"): those win
        odd = [v for v in values if isinstance(v, str)]
        return odd[0] if odd else max(values)

    first = None
    for name, o in outs.items():
        if not o.get("passed") and o.get("first_mismatch"):
            first = {"output": name, **o["first_mismatch"]}
            break
    return {"max_abs_error": worst("max_abs_error"), "max_rel_error": worst("max_rel_error"),
            "mismatch_ratio": worst("mismatch_ratio"), "first_mismatch": first}


def filtered(result, only: CaseFilter):
    """A view of `result` whose reports hold only the selected variants and cases, with pass
    and fail recomputed over them (the exit status follows what was asked for)."""
    import copy

    if not only:
        return result
    view = copy.copy(result)
    view.targets = []
    for t in result.targets:
        reports = {}
        for variant, report in t.reports.items():
            if not only.variant(variant):
                continue
            report = dict(report)
            if report.get("results"):
                report["results"] = [c for c in report["results"] if only.case(c["case"])]
                if not report["results"]:
                    continue
                report["failed"] = sum(1 for c in report["results"] if not c["passed"])
                report["cases"] = len(report["results"])
                report["passed"] = report.get("error") is None and report["failed"] == 0
            reports[variant] = report
        not_run = {v: why for v, why in (getattr(t, "not_run", None) or {}).items()
                   if only.variant(v)}
        if (t.reports or t.not_run) and not reports and not not_run:
            continue    # nothing selected in this target
        view.targets.append(copy.copy(t))
        view.targets[-1].reports = reports
        view.targets[-1].not_run = not_run
    return view


def build_json(result, only: CaseFilter | None = None, root=None) -> dict:
    data = result.to_json()
    data["cases"] = case_rows(result, only, root)
    for f in data.get("failures", []):
        f["diagnostics"] = diagnostics(f.get("output"), root, _package_of(f["target"]))
    return data


# ---- JUnit XML -----------------------------------------------------------------------------

def write_junit(path, result, only: CaseFilter | None = None, root=None) -> None:
    """One <testcase> per case x variant x SoC (classname 'package@SoC', name 'variant/case');
    a target whose build step failed is one failing testcase 'build'. Written atomically."""
    import xml.etree.ElementTree as ET

    from opkg.util.fsutil import atomic_write_bytes
    from opkg.ui.terminal import case_failure

    suites = ET.Element("testsuites", name="opkg")
    by_target: dict[str, ET.Element] = {}

    def suite(t_id, package, soc):
        if t_id not in by_target:
            by_target[t_id] = ET.SubElement(suites, "testsuite", name=f"{package}@{soc}")
        return by_target[t_id]

    failed_steps: dict[str, list[dict]] = {}
    for f in result.failures:
        failed_steps.setdefault(f["target"], []).append(f)
    reports = {t.id: t for t in result.targets}
    for t in result.targets:
        s = suite(t.id, t.package, t.soc)
        steps = failed_steps.get(t.id, [])
        if steps:
            tc = ET.SubElement(s, "testcase", classname=f"{t.package}@{t.soc}", name="build")
            text = "\n\n".join(f"{f['description']}\n{f['output']}" for f in steps)
            ET.SubElement(tc, "failure", message=f"{steps[0]['description']} failed",
                          type="build").text = _rel_text(text, root)
    for row in case_rows(result, only, root):
        s = suite(row["target"], row["package"], row["soc"])
        tc = ET.SubElement(s, "testcase", classname=f"{row['package']}@{row['soc']}",
                           name=f"{row['variant']}/{row['case'] or '*'}",
                           time=f"{row.get('seconds') or 0:.3f}")
        out = host_text(row.get("host"))
        if out:
            ET.SubElement(tc, "system-out").text = _rel_text(out, root)
        if row["passed"]:
            if row.get("outcome") == "xfail":      # as pytest writes an xfailed test
                ET.SubElement(tc, "skipped", type="xfail",
                              message=f"xfail: {row.get('xfail')}").text = \
                    row.get("error") or None
            elif row.get("outcome") == "refused":  # outside the operator's contract on the SoC
                ET.SubElement(tc, "skipped", type="refused",
                              message=f"refused: {row.get('refused')}")
            continue
        t = reports[row["target"]]
        case = next((c for c in (t.reports.get(row["variant"]) or {}).get("results", [])
                     if c["case"] == row["case"]), None)
        lines = case_failure(case, row["variant"]) if case else [row["error"] or "failed"]
        if row.get("artifacts"):
            lines.append(f"expected/actual/inputs saved in {row['artifacts']}")
        lines.append(f"re-run: {row['rerun']}")
        kind = "not-run" if row.get("outcome") == "not run" else "verification"
        ET.SubElement(tc, "failure", message=lines[0], type=kind).text = "\n".join(lines)
    for s in [*suites, suites]:
        cases = s.iter("testcase")
        cases = list(cases)
        s.set("tests", str(len(cases)))
        s.set("failures", str(sum(1 for c in cases if c.find("failure") is not None)))
        s.set("skipped", str(sum(1 for c in cases if c.find("skipped") is not None)))
        s.set("time", f"{sum(float(c.get('time', 0)) for c in cases):.3f}")
    ET.indent(suites)
    atomic_write_bytes(Path(path), ET.tostring(suites, encoding="utf-8", xml_declaration=True)
                       + b"\n")


def host_text(host: dict | None) -> str:
    """A case's host output (opkg.sim.hostio) as text: one block per function called."""
    blocks = []
    for step, rec in (host or {}).items():
        head = f"== {step}: " + ("returned failure" if rec.get("status") == "failed"
                                 else "returned success")
        if rec.get("message"):
            head += f" ({rec['message']})"
        body = [f"-- {name}:\n{rec[name].rstrip()}" for name in ("stdout", "stderr")
                if (rec.get(name) or "").strip()]
        if body or rec.get("status") == "failed":
            blocks.append("\n".join([head, *body]))
    return "\n".join(blocks)


# ---- workflow annotations ------------------------------------------------------------------

def annotation_mode(option: str | None) -> str | None:
    """--annotations github|none; without the option, GitHub Actions (GITHUB_ACTIONS=true)
    gets them and everything else does not."""
    if option:
        return None if option == "none" else option
    return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else None


def github_line(severity: str, message: str, file: str | None = None, line: int | None = None,
                column: int | None = None, title: str | None = None) -> str:
    """A GitHub Actions workflow command; data and properties escaped as the runner expects."""
    props = []
    for key, value in (("file", file), ("line", line), ("col", column), ("title", title)):
        if value:
            props.append(f"{key}={_escape(str(value), prop=True)}")
    head = f"::{severity}" + (" " + ",".join(props) if props else "")
    return f"{head}::{_escape(message)}"


def _escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def build_annotations(result, only: CaseFilter | None = None, root=None) -> list[str]:
    """Compile errors (failed steps) and kernel diagnostics (failing cases) with their place;
    a failing case without one is annotated on the package's manifest."""
    lines = []
    for f in result.failures:
        diags = diagnostics(f.get("output"), root, _package_of(f["target"]))
        for d in diags:
            lines.append(github_line(d["severity"], d["message"], d["file"], d["line"],
                                     d["column"], title=f["description"]))
        if not diags:
            lines.append(github_line("error", f"{f['description']} failed: "
                                     + _rel_text(f.get("output") or "", root).strip()[:2000]))
    for row in case_rows(result, only, root):
        if row["passed"]:
            continue
        title = f"{row['package']}@{row['soc']} {row['variant']}/{row['case'] or '*'}"
        if row["diagnostics"]:
            for d in row["diagnostics"]:
                lines.append(github_line(d["severity"], d["message"], d["file"], d["line"],
                                         d["column"], title=title))
        else:
            lines.append(github_line("error", _case_message(row) + f" (re-run: {row['rerun']})",
                                     title=title))
    return lines


def _package_of(target_id: str) -> str:
    return target_id.split("@")[0]      # a target id is <label>@<SoC>@<toolchain>


def _case_message(row: dict) -> str:
    if row.get("error"):
        return row["error"].splitlines()[0]
    fm = row.get("first_mismatch")
    if fm:
        idx = ", ".join(str(i) for i in fm["index"])
        return (f"{fm['output']}[{idx}] = {fm['actual']}, expected {fm['expected']}; "
                f"mismatch share {row['mismatch_ratio']}")
    return "verification failed"


def error_annotation(exc) -> str:
    """A manifest or usage error (an OpkgError) as one annotation at its file:line; several
    manifest errors (ManifestErrors) as one annotation each."""
    if len(getattr(exc, "errors", ())) > 1:
        return "\n".join(error_annotation(e) for e in exc.errors)
    loc = exc.location
    message = exc.message + (f" (hint: {exc.hint})" if exc.hint else "")
    if loc is None:
        return github_line("error", message)
    return github_line("error", message, _rel(str(loc.path), None), loc.line or None,
                       loc.column or None)


def _in_package(path: str, root, package: str | None) -> str:
    if not root or not package or Path(path).is_absolute() or (Path(root) / path).exists():
        return path
    candidate = Path(root) / package.lstrip("/") / path      # a label is //<dir>
    return str(candidate) if candidate.exists() else path


def _rel(path: str, root) -> str:
    p = Path(path)
    for base in ([Path(root)] if root else []) + [Path.cwd()]:
        try:
            return str(p.resolve().relative_to(Path(base).resolve()))
        except (ValueError, OSError):
            continue
    return str(path)


def _rel_text(text: str, root) -> str:
    return text.replace(str(root) + "/", "") if root else text
