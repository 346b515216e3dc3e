"""What a build returns, read back from the files it wrote: the verification reports and
bundles of each target (the files are the result; SCons' output is only progress).

Shared by the engine, the null-build fast path, `opkg profile` and `opkg report`."""

from __future__ import annotations

import json
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

    @property
    def passed(self) -> bool:
        return bool(self.reports) and all(r.get("passed") for r in self.reports.values())


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
    # --keep-going: errors of manifests the request reached (those packages, and the ones
    # that depend on them, were not built; the others were)
    problems: list = field(default_factory=list)

    @property
    def verification_failed(self) -> list[TargetResult]:
        return [t for t in self.targets if t.reports and not t.passed]

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
                         "variants": {v: {k: r.get(k) for k in ("passed", "cases", "failed")}
                                      for v, r in t.reports.items()}}
                        for t in self.targets],
            "failures": self.failures,
            **({"remote": self.remote} if self.remote else {}),
            **({"load_errors": [e.to_json() for e in self.problems]} if self.problems else {}),
            "warnings": [{k: w.get(k) for k in ("target", "description", "message")}
                         for w in self.warnings],
        }


def read_target(t, failed: bool) -> TargetResult:
    if failed:
        # a step of this target failed: reports and bundle on disk are from an earlier build
        # and describe other sources; show none, and take the stale bundle away so nothing
        # picks it up as this build's artifact
        if t.bundle:
            Path(t.bundle).unlink(missing_ok=True)
        return TargetResult(t.id, t.package, t.name, t.soc, t.toolchain, None, {})
    reports = {}
    for variant, path in t.reports.items():
        try:
            reports[variant] = json.loads(Path(path).read_text())
        except (OSError, json.JSONDecodeError):
            continue
    bundle = Path(t.bundle) if t.bundle and Path(t.bundle).is_file() else None
    return TargetResult(t.id, t.package, t.name, t.soc, t.toolchain, bundle, reports)


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

    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text())
    except ValueError:
        raise UsageError(f"{path} is not a readable verification report",
                         hint=f"rebuild it: opkg build {entry['label']} --soc {entry['soc']}") from None


def report_path(ws, package: str, soc: str, variant: str) -> Path:
    # where the sim backend writes each variant's report (opkg/toolchains/sim.py)
    return ws.settings.output_dir / "sim" / package / soc / variant / "verification.json"
