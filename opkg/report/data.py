"""What `opkg report` shows, read back from what builds left in the output directory: the
verification report of each selected (package, SoC, variant), the arrays of its failing cases,
and the package graph. Plain data; nothing here draws (figures.py) or lays out (page.py).

Reports are found where `opkg profile` finds them (`opkg.build.results.variant_reports`) and
turned into rows by `opkg.ui.ci_output.case_rows`, so the page, `--json` and JUnit never disagree
about a case.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

# the toolchain whose layout holds the reports (the only one that verifies)
TOOLCHAIN = "sim"


@dataclass
class FailedOutput:
    """One output of a failing case, as saved next to its report (opkg/verify/artifacts.py)."""

    name: str                   # z, or y[0] for a tensor of a dynamic output
    expected: object            # numpy arrays
    actual: object
    rtol: float | None
    atol: float | None


@dataclass
class FailedCase:
    row: dict                   # the ci_output.case_rows row
    outputs: list[FailedOutput] = field(default_factory=list)


@dataclass
class ReportData:
    root: Path
    packages: list              # manifest.Package: the selection and what it depends on
    selected: list[str]         # labels the user selected
    rows: list[dict]            # ci_output.case_rows over every report found
    missing: list[dict]         # (package, SoC, variant) entries with no report yet
    reports: dict = field(default_factory=dict)     # (label, soc, variant) -> report
    socs: dict = field(default_factory=dict)        # the workspace's SoC table (core.socs)

    def case(self, row: dict) -> dict | None:
        report = self.reports.get((row["package"], row["soc"], row["variant"]), {})
        return next((c for c in report.get("results", []) if c["case"] == row["case"]), None)

    def variants(self) -> list[dict]:
        """One entry per declared (package, SoC, variant): PASS, FAILED (with the first
        reason) or NOT BUILT, and its case counts."""
        out = []
        for (label, soc, variant), report in sorted(self.reports.items()):
            results = report.get("results", [])
            failed = [c for c in results if not c["passed"]]
            why = report.get("error") or (
                f"{len(failed)} of {len(results)} cases failed: "
                + ", ".join(c["case"] for c in failed) if failed else "")
            out.append({"package": label, "soc": soc, "variant": variant,
                        "status": "PASS" if report.get("passed") else "FAILED",
                        "cases": len(results), "failed": len(failed),
                        "why": why.splitlines()[0] if why else ""})
        for m in self.missing:
            out.append({"package": m["label"], "soc": m["soc"], "variant": m["variant"],
                        "status": "NOT BUILT", "cases": 0, "failed": 0,
                        "why": f"no report: opkg test {m['label']} --soc {m['soc']}"})
        return out

    def status(self, pkg) -> str:
        """pass, fail, not built (an operator with no report) or library."""
        if pkg.op is None:
            return "library"
        mine = [r for r in self.rows if r["package"] == pkg.label]
        if not mine:
            return "not built"
        return "pass" if all(r["passed"] for r in mine) else "fail"

    def failed_cases(self) -> list[FailedCase]:
        """Each failing case whose arrays this checkout has (a report restored from the cache
        comes without them), with every output it saved."""
        out = []
        for row in self.rows:
            if row["passed"] or not row.get("artifacts"):
                continue
            out.append(FailedCase(row, _saved_outputs(self.root / row["artifacts"],
                                                      self.case(row) or {})))
        return out


def collect(ws, targets, socs=()) -> ReportData:
    """Everything on disk for the selected packages. Nothing built at all is an error that
    says what to build; a damaged report is an error that says what to rebuild."""
    from opkg.ui import ci_output
    from opkg.build.results import TargetResult, read_report, variant_reports
    from opkg.core.errors import UsageError

    for s in socs:
        ws.socs.get_soc(s)      # an unknown name is an error with a did-you-mean
    selected = ws.select(list(targets))
    selection = ws.load_targets(list(targets))
    closure = selection.closure
    operators = [p for p in selected if p.op is not None]
    by_target: dict[tuple, TargetResult] = {}
    paths: dict[tuple, dict] = {}
    reports, missing = {}, []
    for entry, path in variant_reports(ws, operators, socs):
        report = read_report(path, entry)
        if report is None:
            missing.append(entry)
            continue
        key = (entry["label"], entry["soc"])
        if key not in by_target:
            by_target[key] = TargetResult(f"{entry['label']}@{entry['soc']}@{TOOLCHAIN}",
                                          entry["label"], entry["package"], entry["soc"],
                                          TOOLCHAIN, None, {})
            paths[key] = {}
        by_target[key].reports[entry["variant"]] = report
        paths[key][entry["variant"]] = str(path)
        reports[(entry["label"], entry["soc"], entry["variant"])] = report
    if operators and not reports:
        first = missing[0] if missing else None
        raise UsageError(
            "no verification report to draw" + (
                f" ({first['package']} on {first['soc']} is not built)" if first else
                " (no selected package targets these SoCs)"),
            hint="build first: opkg build " + " ".join(targets or ["//..."])
                 + "".join(f" --soc {s}" for s in socs))
    rows = ci_output.case_rows(_Built(list(by_target.values()), paths), root=ws.root)
    return ReportData(ws.root, closure, [p.label for p in selected], rows, missing, reports,
                      ws.socs)


class _Built:
    """The reports on disk in the shape ci_output reads from a build's result (its targets,
    and the plan's report paths, which locate the saved arrays)."""

    def __init__(self, targets, paths: dict):
        self.targets = targets
        self.plan = _Plan([_PlanTarget(t.id, paths[(t.package, t.soc)]) for t in targets])


@dataclass
class _PlanTarget:
    id: str
    reports: dict


@dataclass
class _Plan:
    targets: list


_EXPECTED = re.compile(r"^expected(?P<suffix>(?:\.[^/]+?)?)\.npy$")


def _saved_outputs(d: Path, case: dict) -> list[FailedOutput]:
    """expected[.<output>[.<k>]].npy with its actual twin, named as the case names outputs."""
    import numpy as np

    outputs = case.get("outputs", {})
    found = []
    for f in sorted(d.glob("expected*.npy")):
        m = _EXPECTED.match(f.name)
        twin = d / ("actual" + f.name[len("expected"):])
        if not m or not twin.is_file():
            continue
        name = _output_name(m["suffix"].lstrip("."), outputs)
        tol = outputs.get(name, {})
        found.append(FailedOutput(name, np.load(f, allow_pickle=False),
                                  np.load(twin, allow_pickle=False),
                                  tol.get("rtol"), tol.get("atol")))
    return found


def _output_name(suffix: str, outputs: dict) -> str:
    if not suffix:                          # a single output: saved without its name
        return next(iter(outputs), "output")
    base, _, k = suffix.rpartition(".")
    if base and k.isdigit() and f"{base}[{k}]" in outputs:   # a tensor of a dynamic output
        return f"{base}[{k}]"
    return suffix
