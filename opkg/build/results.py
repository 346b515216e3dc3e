"""What a build returns, read back from the files it wrote: the verification reports and
bundles of each target (the files are the result; SCons' output is only progress).

Shared by the engine, the null-build fast path, `opkg profile` and `opkg report`."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from opkg.core.actions import Plan


@dataclass
class TargetResult:
    id: str
    package: str
    name: str
    soc: str
    toolchain: str
    bundle: Path | None
    reports: dict[str, dict]          # variant -> verification report (missing if not built)
    # variant -> why it has no report of this build: every variant the plan verifies is either
    # in `reports` or here, so a variant that was never verified is never counted as passed
    not_run: dict[str, str] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return bool(self.reports) and not self.not_run and all(
            r.get("passed") for r in self.reports.values())

    def variant_status(self) -> dict[str, dict]:
        """variant -> {"status": PASS|FAILED|REFUSED|UNTESTED|NOT RUN, "why": ...}, every
        declared variant; REFUSED: the operator's tiling refused every case it ran, each one it
        may refuse (Case.if_supported), so nothing was verified (a failure all the same);
        UNTESTED: no case is written for its dtypes (manifest.cases_for), nothing verified
        either."""
        out = {v: {"status": "NOT RUN", "why": why} for v, why in self.not_run.items()}
        for v, r in self.reports.items():
            if r.get("untested"):
                out[v] = {"status": "UNTESTED", "why": r["untested"]}
                continue
            why = None
            if not r.get("passed"):
                why = (r.get("error") or "").split("\n")[0] or \
                    f"{r.get('failed')} of {r.get('cases')} cases failed"
            refused = bool(r.get("refused")) and r["refused"] == len(r.get("results") or [])
            out[v] = {"status": "PASS" if r.get("passed") else ("REFUSED" if refused else "FAILED"),
                      "why": why}
        return dict(sorted(out.items()))


@dataclass
class BuildResult:
    plan: Plan
    targets: list[TargetResult]
    failures: list[dict]              # 'fail' events: a step that did not complete
    ran: int = 0
    cached: int = 0
    elapsed: float = 0.0
    scons_output: list[str] = field(default_factory=list)
    # 'warning' events: compiler warnings about the packages' own sources as compiled now,
    # and outputs or build cache entries found damaged (and rebuilt)
    warnings: list[dict] = field(default_factory=list)
    nothing: str | None = None        # set when the request had nothing to build, and why
    # the remote cache (opkg.remote), when one was used: steps restored from it, steps it had
    # no entry for, steps uploaded to it
    remote: dict | None = None
    # remote execution, when used: worker -> the steps it ran for this build
    executed: dict | None = None
    # --keep-going: errors of manifests the request reached (those packages, and the ones
    # that depend on them, were not built; the others were)
    problems: list = field(default_factory=list)

    @property
    def verification_failed(self) -> list[TargetResult]:
        return [t for t in self.targets if (t.reports or t.not_run) and not t.passed]

    bundled: bool = True

    @property
    def ok(self) -> bool:
        return not self.problems and not self.failures and not self.verification_failed and all(
            t.bundle is not None or not self.bundled for t in self.targets)

    @property
    def bundles(self) -> list[Path]:
        return [t.bundle for t in self.targets if t.bundle is not None]

    def to_json(self) -> dict:
        return {
            "ok": self.ok, "ran": self.ran, "cached": self.cached, "nothing": self.nothing,
            "elapsed": round(self.elapsed, 3),
            "targets": [{"id": t.id, "package": t.package, "soc": t.soc,
                         "toolchain": t.toolchain, "passed": t.passed,
                         "bundle": str(t.bundle) if t.bundle else None,
                         "variants": {v: {**{k: (t.reports.get(v) or {}).get(k)
                                             for k in ("passed", "cases", "failed",
                                                       "refused")
                                             if k != "refused" or (t.reports.get(v) or {}).get(k)},
                                          **{"passed": s["status"] == "PASS"}, **s}
                                      for v, s in t.variant_status().items()}}
                        for t in self.targets],
            "failures": self.failures,
            **({"custom_packages": self.plan.custom_packages}
               if self.plan.custom_packages else {}),
            **({"remote": self.remote} if self.remote else {}),
            **({"remote_exec": {"workers": self.executed, "steps": sum(self.executed.values())}}
               if self.executed is not None else {}),
            **({"load_errors": [e.to_json() for e in self.problems]} if self.problems else {}),
            # cached: replayed from the cache entry of a restored step (opkg.build.cache)
            "warnings": [{**{k: w.get(k) for k in ("target", "description", "message")},
                          **({"cached": True} if w.get("cached") else {})}
                         for w in self.warnings],
        }


def read_target(t, failed: bool, settled: set[str] | None = None,
                failures: list[dict] = ()) -> TargetResult:
    """The target as this build left it. `settled`: the outputs this build made, restored or
    found up to date (None: all of them, the fast path's case); a report outside it is from
    an earlier build (a step it depends on failed, possibly one another target owns) and is
    not shown as this build's result."""
    own = [f for f in failures if f["target"] == t.id]
    if failed:
        # a step of this target failed: reports and bundle on disk are from an earlier build
        # and describe other sources; show none, and take the stale bundle away so nothing
        # picks it up as this build's artifact
        if t.bundle:
            Path(t.bundle).unlink(missing_ok=True)
        why = f"{own[0]['description']} failed" if own else "a step of this target failed"
        return TargetResult(t.id, t.package, t.name, t.soc, t.toolchain, None, {},
                            {v: why for v in t.reports})
    from opkg.core.report_schema import read_report as read_checked

    reports, not_run = {}, {}
    for variant, path in t.reports.items():
        if settled is not None and str(path) not in settled:
            not_run[variant] = (f"{failures[0]['description']} failed ({failures[0]['target']})"
                                if failures else "its verification did not run in this build")
            continue
        report, problem = read_checked(path)     # a malformed one is as good as missing
        if report is None:
            not_run[variant] = f"its report {path} cannot be read ({problem})"
        else:
            reports[variant] = report
    bundle = Path(t.bundle) if t.bundle and Path(t.bundle).is_file() else None
    result = TargetResult(t.id, t.package, t.name, t.soc, t.toolchain, bundle, reports, not_run)
    if bundle is not None and (t.reports and not result.passed):
        # a bundle whose verification did not fully pass is nobody's artifact (publish refuses
        # it); its reports stay in out/sim for CI. The next build restores it from the cache.
        bundle.unlink(missing_ok=True)
        result.bundle = None
    return result


def variant_reports(ws, pkgs, socs=()):
    """(entry, report path) per (operator package, SoC, dtype variant) selected, whether the
    report exists or not; `opkg report` reads the same."""
    for pkg in pkgs:
        for soc in [s for s in pkg.socs if not socs or s in socs]:
            for variant in pkg.op.for_soc(ws.socs.get_soc(soc).short).variants():   # op.soc_configs
                yield ({"package": pkg.name, "label": pkg.label, "soc": soc,
                        "variant": variant.name}, report_path(ws, pkg.name, soc, variant.name))


def read_report(path: Path, entry: dict) -> dict | None:
    """A verification report, None when not built; a damaged one is an error saying to rebuild."""
    from opkg.core.errors import UsageError

    from opkg.core.report_schema import read_report as read_checked

    if not path.is_file():
        return None
    report, problem = read_checked(path)
    if problem:
        raise UsageError(f"{path} is not a readable verification report ({problem})",
                         hint=f"rebuild it: opkg build {entry['label']} --soc {entry['soc']}")
    return report


def report_path(ws, package: str, soc: str, variant: str) -> Path:
    # where the sim backend writes each variant's report (opkg/toolchains/sim.py)
    return ws.settings.output_dir / "sim" / package / soc / variant / "verification.json"
