"""The build engine: plan -> SCons subprocess -> results read back from files.

`build()` is the one entry point the CLI commands (build, test, publish) share. It writes the
plan, runs `python -m SCons` on the workspace's SConstruct (SCons is not supported as a library),
streams its `@@opkg` events to a progress callback, and then reads verification reports and
bundles from disk: the files are the result, the subprocess output only the progress.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from opkg import procs
from opkg.model import SimModes
from opkg.errors import BuildError, Interrupted
from opkg.events import EVENT_PREFIX
from opkg.plan import BuildRequest, Plan, make_plan, write_plan

BUILTIN_SCONSTRUCT = Path(__file__).parent / "SConstruct.builtin"
_CACHE_LINE = re.compile(r"^Retrieved `(.+)' from cache")


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


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def build(ws, patterns, *, wait: bool = True, on_event: Callable[[dict], None] | None = None,
          **options) -> BuildResult:
    """Build `patterns` (options: see _build) holding the workspace lock: a second build in the
    same workspace waits for it (a note says so) or, with wait=False, fails (WorkspaceBusy)."""
    from opkg import wslock

    def waiting(message):
        if on_event:
            on_event({"event": "note", "message": message})

    with wslock.build_lock(ws.settings.output_dir, wait=wait, on_wait=waiting) as lock_fd:
        procs.checkpoint("locked")
        return _build(ws, patterns, on_event=on_event, lock_fd=lock_fd, **options)


def _build(ws, patterns, *, socs=None, toolchain=None, jobs=None, keep_going=False,
           verify=True, bundle=True, on_event: Callable[[dict], None] | None = None,
           locked: bool = False, explain: bool = False, modes: SimModes = SimModes(),
           lock_fd: int | None = None) -> BuildResult:
    from opkg.fastpath import FastPath

    # Null-build fast path: when a stat snapshot proves that nothing this request depends on
    # changed since its last successful build, return that build's result without parsing
    # manifests or starting SCons. Any doubt falls through to the full build below.
    fast = FastPath(ws, patterns, socs=socs, toolchain=toolchain, verify=verify, bundle=bundle,
                    locked=locked, modes=modes.to_json())
    previous = fast.reuse(on_event)
    if explain and on_event:
        on_event({"event": "fastpath", "used": previous is not None, "reason": fast.reason})
    if previous is not None:
        return previous
    fast.invalidate()
    on_event = fast.observe(on_event)
    # imported only past the fast path, which needs none of them (~80 ms of imports)
    from opkg import cache, distcc
    from opkg.explain import note_toolchains
    from opkg.toolchains.alignment import lock_digest, preflight

    # distributed compiles: bad hosts or a missing client stop here, before anything runs
    dist = distcc.resolve(ws.settings.distcc)
    # only the manifests the request needs are loaded; a broken one stops the build unless
    # --keep-going, which builds everything that does not need it (Bazel's --keep_going)
    selection = ws.load_targets(patterns)
    if selection.problems and (not keep_going or not selection.packages):
        from opkg.errors import raise_all

        raise_all(selection.problems)
    packages = selection.packages
    _check_socs(ws, packages, socs)
    # a package's deps are built too: a library has no actions, an operator dep its own
    closure = selection.closure
    # toolchain misalignment (and, with --locked, drift from opkg.lock) stops here, exit 3
    resolution = preflight(ws, closure, list(socs) if socs else None, toolchain, locked=locked)
    if on_event:
        for choice in resolution.choices:
            for note in choice.notes:
                on_event({"event": "note", "target": f"{choice.package}@{choice.soc}",
                          "message": note})
    request = BuildRequest(tuple(closure), tuple(socs) if socs else None, toolchain, verify,
                           bundle, resolution, lock_digest(ws), modes)
    plan = make_plan(ws, request)
    if not plan.actions:
        return BuildResult(plan, [], [], bundled=bundle, nothing=_nothing_to_build(packages),
                           problems=selection.problems)
    if dist is not None:
        plan.distcc = dist.to_plan()
        # the hosts' job slots keep them busy; never fewer than this machine's CPUs (links,
        # verification, and distcc's local preprocessing run here)
        jobs = jobs or max(dist.slots, default_jobs())
        if on_event:
            on_event({"event": "note", "message": f"distcc: compiles run on {dist.hosts} "
                                                  f"(-j{jobs})"})
    note_toolchains(ws, plan)    # for --explain: which part of a toolchain identity changed
    from opkg.remote import prepare as prepare_remote

    # the remote cache: checked once here (a warning and a local build when it cannot be used)
    remote_env = prepare_remote(ws, on_event or (lambda event: None))
    # `opkg cache prune` waits while builds hold the cache (opkg/cache.py)
    with cache.shared_lock(plan.cache_dir):
        result = run_plan(ws, plan, jobs=jobs, keep_going=keep_going, on_event=on_event,
                          explain=explain, inherit_fds=(lock_fd,) if lock_fd is not None else (),
                          extra_env=remote_env)
    result.problems = selection.problems
    cache.note_build(plan.cache_dir, result.cached, result.ran, str(ws.root),
                     remote=result.remote)
    fast.record(result)          # only a fully successful build is recorded
    return result


def _check_socs(ws, packages, socs) -> None:
    """--soc values must be known SoCs that some selected package declares."""
    if not socs:
        return
    from opkg.errors import UsageError, did_you_mean
    from opkg.socs import soc_table

    known = soc_table(ws.root)
    declared = {s for p in packages for s in p.socs}
    for soc in socs:
        if soc not in known:
            # suggest only a SoC the selected packages declare: another would fail next
            near = did_you_mean(soc, known)
            listed = f"the selected packages declare: {', '.join(sorted(declared))}"
            if declared and near and near.split("'")[1] not in declared:
                near = None
            raise UsageError(f"unknown SoC {soc!r}", field="--soc",
                             hint=near or (listed if declared else "see toolchains/socs.yaml"))
    if packages and declared and not declared & set(socs):
        raise UsageError(f"no selected package declares {', '.join(socs)}", field="--soc",
                         hint=f"they declare: {', '.join(sorted(declared))}")


def _nothing_to_build(packages) -> str:
    if packages and all(not p.is_operator for p in packages):
        return "nothing to build: " + ", ".join(p.label for p in packages) + \
            " holds headers only (a library package); its dependents build it in"
    return "nothing to build"


def run_plan(ws, plan: Plan, *, jobs=None, keep_going=False, on_event=None,
             explain: bool = False, inherit_fds=(), extra_env=None) -> BuildResult:
    """Run SCons on the plan. `inherit_fds` stay open in SCons (the workspace lock: held until
    SCons is gone, even when opkg is killed)."""
    out = Path(plan.output_dir)
    plan_path = out / ".opkg" / "plan.json"
    remove_partial(out)       # left by a build killed with SIGKILL (the caller holds the lock)
    write_plan(plan, plan_path)
    sconstruct = ws.root / "SConstruct"
    if not sconstruct.is_file():
        sconstruct = BUILTIN_SCONSTRUCT
    argv = [sys.executable, "-m", "SCons", "-Q", "-f", str(sconstruct),
            f"-j{jobs or default_jobs()}", f"plan={plan_path}"]
    if keep_going:
        argv.append("-k")
    explainer = None
    if explain:
        from opkg.explain import Explainer

        # SCons says why it rebuilds each node; Explainer maps nodes to steps, in plain words
        argv.append("--debug=explain")
        explainer = Explainer(plan, ws.root, on_event or (lambda event: None))
    env = dict(os.environ, **(extra_env or {}))
    # the SCons process imports opkg from the same place this one did
    env["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).resolve().parent.parent),
                                         env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    started = time.monotonic()
    failures: list[dict] = []
    warnings: list[dict] = []
    output: list[str] = []
    ran = cached = 0
    remote = {"hits": 0, "misses": 0, "uploads": 0} if extra_env else None
    try:
        # SCons runs in a session of its own; leaving this block by any path (an error, Ctrl-C,
        # a second Ctrl-C) stops every process of it: SCons, compilers, verify runners
        with procs.session(argv, cwd=ws.root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, env=env, pass_fds=inherit_fds) as proc:
            for line in proc.stdout:
                line = line.rstrip("\n")
                if line.startswith(EVENT_PREFIX):
                    event = json.loads(line[len(EVENT_PREFIX):])
                    if event["event"] == "done":
                        ran += 1
                    elif event["event"] == "fail":
                        failures.append(event)
                    elif event["event"] == "warning":
                        warnings.append(event)
                    elif event["event"] in _REMOTE_EVENTS and remote is not None:
                        remote[_REMOTE_EVENTS[event["event"]]] += 1
                    if on_event:
                        on_event(event)
                    continue
                if explainer is not None and explainer.feed(line):
                    continue
                hit = _CACHE_LINE.match(line)
                if hit:
                    cached += 1
                    if on_event:
                        on_event({"event": "cached", "path": hit.group(1)})
                    continue
                output.append(line)
            if explainer is not None:
                explainer.flush()
    except KeyboardInterrupt:
        # outputs are renamed into place only when complete; temporaries of a step that had to
        # be killed (SIGKILL leaves no chance to clean up) are removed here
        remove_partial(out)
        raise Interrupted("interrupted; completed outputs are kept, nothing half-written",
                          hint="run the same command again to continue") from None
    code = proc.returncode
    if code != 0 and not failures:
        raise BuildError("SCons failed before running any step:\n  "
                         + "\n  ".join(l for l in output if l.strip())[-4000:],
                         hint="this is a bug in opkg or a broken SConstruct; see "
                              f"{plan_path} for the plan")
    failed_targets = {f["target"] for f in failures}
    return BuildResult(plan, [_read_target(t, t.id in failed_targets) for t in plan.targets],
                       failures, ran, cached, time.monotonic() - started, output,
                       bundled=any(t.bundle for t in plan.targets), warnings=warnings,
                       remote=remote)


_REMOTE_EVENTS = {"remote_hit": "hits", "remote_miss": "misses", "remote_upload": "uploads"}


_PARTIAL = re.compile(r"\.(tmp-\d+(-\d+)?|restore-\d+)$")


def remove_partial(out: Path) -> None:
    """Remove temporary files (`<output>.tmp-<pid>-<thread>`, `.<name>.tmp-<pid>`, the build
    cache's `<output>.restore-<pid>`) that killed steps left in `out`. Only with the
    workspace lock held: then no other build is writing."""
    for dirpath, _, files in os.walk(out):
        for name in files:
            if _PARTIAL.search(name):
                Path(dirpath, name).unlink(missing_ok=True)


def _read_target(t, failed: bool) -> TargetResult:
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
