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
from pathlib import Path
from typing import Callable

from opkg.util import procs
from opkg.core.model import SimModes
from opkg.core.errors import BuildError, Interrupted
from opkg.build.events import EVENT_PREFIX
from opkg.build.plan import BuildRequest, make_plan, write_plan
from opkg.build.results import BuildResult, read_target
from opkg.core.actions import Plan
from opkg.util.fsutil import seal, sealed

BUILTIN_SCONSTRUCT = Path(__file__).parent / "SConstruct.builtin"
_CACHE_LINE = re.compile(r"^Retrieved `(.+)' from cache")


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def build(ws, patterns, *, wait: bool = True, on_event: Callable[[dict], None] | None = None,
          **options) -> BuildResult:
    """Build `patterns` (options: see _build) holding the workspace lock: a second build in the
    same workspace waits for it (a note says so) or, with wait=False, fails (WorkspaceBusy)."""
    from opkg.build import wslock

    def waiting(message):
        if on_event:
            on_event({"event": "note", "message": message})

    with wslock.build_lock(ws.settings.output_dir, wait=wait, on_wait=waiting) as lock_fd:
        procs.checkpoint("locked")
        return _build(ws, patterns, on_event=on_event, lock_fd=lock_fd, **options)


def _build(ws, patterns, *, socs=None, toolchain=None, jobs=None, keep_going=False,
           verify=True, bundle=True, on_event: Callable[[dict], None] | None = None,
           locked: bool = False, explain: bool = False, modes: SimModes = SimModes(),
           lock_fd: int | None = None, select=None, fresh_verify: bool = False) -> BuildResult:
    from opkg.build.fastpath import FastPath

    # Null-build fast path: when a stat snapshot proves that nothing this request depends on
    # changed since its last successful build, return that build's result without parsing
    # manifests or starting SCons. Any doubt falls through to the full build below.
    # (--no-cache asks for verification to run: never from a record.)
    fast = FastPath(ws, patterns, socs=socs, toolchain=toolchain, verify=verify, bundle=bundle,
                    locked=locked, modes=modes.to_json(),
                    **({"select": select.to_json()} if select else {}))
    previous = None if fresh_verify else fast.reuse(on_event)
    if fresh_verify:
        fast.reason = "--no-cache: verification runs again"
    if explain and on_event:
        on_event({"event": "fastpath", "used": previous is not None, "reason": fast.reason})
    if previous is not None:
        return previous
    fast.invalidate()
    on_event = fast.observe(on_event)
    # imported only past the fast path, which needs none of them (~80 ms of imports)
    from opkg.build import cache, distcc
    from opkg.build.explain import note_toolchains
    from opkg.toolchains.alignment import lock_digest, preflight

    # distributed compiles: bad hosts or a missing client stop here, before anything runs
    dist = distcc.resolve(ws.settings.distcc)
    # only the manifests the request needs are loaded; a broken one stops the build unless
    # --keep-going, which builds everything that does not need it (Bazel's --keep_going)
    if on_event:        # a git repository's first fetch can take a while: say so
        ws.repositories.on_note = lambda message: on_event({"event": "note",
                                                            "message": message})
    selection = ws.load_targets(patterns)
    if selection.problems and (not keep_going or not selection.packages):
        from opkg.core.errors import raise_all

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
                           bundle, resolution, lock_digest(ws), modes, select)
    plan = make_plan(ws, request)
    if fresh_verify:
        plan.fresh = ("verify",)
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
    # remote execution: checked once here too (a server that cannot run actions is an error)
    from opkg.remote import prepare_exec

    remote_env.update(prepare_exec(ws))
    # `opkg cache prune` waits while builds hold the cache (opkg/build/cache.py)
    with cache.shared_lock(plan.cache_dir):
        result = run_plan(ws, plan, jobs=jobs, keep_going=keep_going, on_event=on_event,
                          explain=explain, inherit_fds=(lock_fd,) if lock_fd is not None else (),
                          extra_env=remote_env)
    result.problems = selection.problems
    cache.note_build(plan.cache_dir, result.cached, result.ran, str(ws.root),
                     remote=result.remote)
    fast.record(result)          # only a build whose every step ran is recorded
    return result


def _check_socs(ws, packages, socs) -> None:
    """--soc values must be known SoCs that some selected package declares."""
    if not socs:
        return
    from opkg.core.errors import UsageError, did_you_mean

    known = ws.socs
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
    sconsign = out / ".opkg" / SCONSIGN
    _check_sconsign(sconsign, on_event)
    sconstruct = ws.root / "SConstruct"
    if not sconstruct.is_file():
        sconstruct = BUILTIN_SCONSTRUCT
    argv = [sys.executable, "-m", "SCons", "-Q", "-f", str(sconstruct),
            f"-j{jobs or default_jobs()}", f"plan={plan_path}"]
    if keep_going:
        argv.append("-k")
    explainer = None
    if explain:
        from opkg.build.explain import Explainer

        # SCons says why it rebuilds each node; Explainer maps nodes to steps, in plain words
        argv.append("--debug=explain")
        explainer = Explainer(plan, ws.root, on_event or (lambda event: None))
    env = dict(os.environ, **(extra_env or {}))
    # the SCons process imports opkg from the same place this one did
    env["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).resolve().parents[2]),
                                         env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    started = time.monotonic()
    failures: list[dict] = []
    warnings: list[dict] = []
    output: list[str] = []
    ran = cached = 0
    settled: set[str] = set()     # outputs this build made, restored or found up to date
    outputs_of = {}
    step_of = {}                  # output -> its step: SCons reports each restored file
    for a in plan.actions:
        outputs_of.setdefault(a.description, []).extend(a.outputs)
        step_of.update((o, a.description) for o in a.outputs)
    restored: set[str] = set()    # steps (not files) restored from the cache
    from opkg.remote.config import ENV_EXEC_RESOLVED, ENV_RESOLVED

    remote = {"hits": 0, "misses": 0, "uploads": 0} if ENV_RESOLVED in (extra_env or {}) \
        else None
    # remote execution: steps each worker ran (the server answered from its own action cache
    # for the others)
    executed = {} if ENV_EXEC_RESOLVED in (extra_env or {}) else None
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
                    if event["event"] in ("done", "uptodate"):
                        settled.update(outputs_of.get(event["description"], ()))
                    elif event["event"] == "fail":
                        failures.append(event)
                    elif event["event"] == "warning":
                        warnings.append(event)
                    elif event["event"] in _REMOTE_EVENTS and remote is not None:
                        remote[_REMOTE_EVENTS[event["event"]]] += 1
                    elif event["event"] == "remote_exec" and executed is not None:
                        executed[event["worker"]] = executed.get(event["worker"], 0) + 1
                    if on_event:
                        on_event(event)
                    continue
                if explainer is not None and explainer.feed(line):
                    continue
                hit = _CACHE_LINE.match(line)
                if hit:
                    path = str(ws.root / hit.group(1))
                    settled.add(path)
                    step = step_of.get(path, path)
                    if step not in restored:      # a step of two outputs is one step restored
                        restored.add(step)
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
        seal(sconsign)
        raise Interrupted("interrupted; completed outputs are kept, nothing half-written",
                          hint="run the same command again to continue") from None
    seal(sconsign)    # every SCons process is gone: the database is the one it wrote
    code = proc.returncode
    if code != 0 and not failures:
        raise BuildError("SCons failed before running any step:\n  "
                         + "\n  ".join(l for l in output if l.strip())[-4000:],
                         hint="this is a bug in opkg or a broken SConstruct; see "
                              f"{plan_path} for the plan")
    failed_targets = {f["target"] for f in failures}
    return BuildResult(plan, [read_target(t, t.id in failed_targets, settled, failures)
                              for t in plan.targets],
                       failures, ran, cached, time.monotonic() - started, output,
                       bundled=any(t.bundle for t in plan.targets), warnings=warnings,
                       remote=remote, executed=executed)


SCONSIGN = "sconsign.dblite"     # SConsignFile(out/.opkg/sconsign) in scons_glue.declare


def _check_sconsign(path: Path, on_event) -> None:
    """SCons unpickles its signature database. Only one sealed on this machine is left for it
    to read (opkg.util.fsutil.seal): one that came with a copied out/ is deleted, and the steps
    it covered run again (or come from the build cache)."""
    if not path.exists() or sealed(path):
        return
    path.unlink()
    if on_event:
        on_event({"event": "warning", "message": f"{path} was not written by a build on this "
                  "machine (a copied or downloaded output directory?); removed, so SCons "
                  "never reads it; its steps are checked again"})


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
