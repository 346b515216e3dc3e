"""SCons side of the build: read a plan (opkg.build.plan) and declare one SCons node per Action.

Imported only by SConstruct, inside the SCons process. It makes no decisions of its own:
every command, input and output comes from the plan. SCons contributes what it is good at:
content signatures, #include scanning, parallel jobs, CacheDir. Actions report progress as
`@@opkg {json}` lines on stdout, which opkg.build.engine turns into the user's display.

Each action's identity (argv, generated content, parameters, toolchain fingerprint) is a
Value source of its node, so changing any of them rebuilds, and the CacheDir key changes too.

A step's own compiler warnings are kept with its cache entry and shown again when it is
restored, so a build answered from the cache shows the warnings a fresh one shows.

Integrity: the digest of every output is recorded when its step finishes or it is restored
(opkg.build.outputs), and checked before SCons decides what is up to date: an output that no longer
holds what was written is removed with a warning, so SCons restores or rebuilds it (SCons itself
never looks at a target's content). Cache entries carry their digest (opkg.build.cache) and
`_verified_cache_dir` checks it on every restore.

With a remote cache (opkg.remote), the same CacheDir subclass asks it when the local cache has
no entry, and uploads to it after a step ran: the local cache stays the first level.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

from opkg.build import cache, distcc
from opkg.build.events import EVENT_PREFIX
from opkg.util.fsutil import atomic_write_text
from opkg.build.outputs import OutputRecord
from opkg.core.statsig import stat_signature
from opkg.core.actions import Action, Plan, path_aliaser
from opkg.util.procs import checkpoint, watch_parent

_ACTIONS: list[Action] = []
_print_lock = threading.Lock()
_RECORD: list[OutputRecord] = []          # the output directory's record, set by declare()
_WRITTEN: dict[str, str] = {}             # absolute output path -> digest when its step ended
_PACKAGE_DIRS: dict[str, Path] = {}       # target id -> its package's directory, set by declare()
_REPORTS: set[str] = set()                # absolute paths of verification reports, set by declare()
_IDENTITIES: list[str] = []               # per action: its identity (the Value SCons keys on)
_REMOTE: list = []                        # the remote cache level (opkg.remote.level), if any
_REMOTE_ACTIONS: dict[int, object] = {}   # action index -> its REAPI Action (None: not possible)
_remote_lock = threading.Lock()
_EXECUTOR: list = []                      # remote execution (opkg.remote.execute), if any
_FRESH: list = []                         # the plan's steps that run whatever a cache holds
# absolute path of a step's last output -> the diagnostics it printed when it ran (stored with
# its cache entry, replayed when the step is restored: opkg.build.cache)
_DIAGNOSTICS: dict[str, list] = {}


def emit(event: str, **fields) -> None:
    line = EVENT_PREFIX + json.dumps({"event": event, **fields}) + "\n"
    with _print_lock:
        sys.stdout.write(line)
        sys.stdout.flush()


def declare(plan_path: str) -> None:
    import gc

    from SCons.Script import Decider, Default, Environment, SConsignFile

    watch_parent()     # first: if opkg dies, this process and everything it started stop
    # Declaring thousands of steps allocates a few hundred thousand objects that all live until
    # SCons exits: the cyclic collector would walk them again and again (a quarter of a null
    # build's CPU at 200 packages). Off while declaring; then they are frozen out of its way.
    gc.disable()
    plan = Plan.from_json(json.loads(Path(plan_path).read_text()))
    state_dir = Path(plan.output_dir) / ".opkg"
    state_dir.mkdir(parents=True, exist_ok=True)
    SConsignFile(str(state_dir / "sconsign"))
    # content, not content-timestamp: an edit within the same second as the last build
    # (same mtime) must still rebuild
    Decider("content")
    _RECORD[:] = [OutputRecord(plan.output_dir)]
    _OUTPUT_DIR[:] = [plan.output_dir]
    _PACKAGE_DIRS.update({t.id: Path(plan.workspace_root, t.package.removeprefix("//"))
                          for t in plan.targets})
    _REPORTS.update(os.path.abspath(p) for t in plan.targets for p in t.reports.values())
    _check_outputs(plan)
    _DISTCC[:] = [plan.distcc] if plan.distcc else []
    # OPKG_CACHE_FORMAT is part of every action's signature: entries of another format are
    # never looked up (they age out through `opkg cache prune`)
    env = Environment(ENV=os.environ, tools=[], OPKG_CACHE_FORMAT=cache.ENTRY_FORMAT)
    if plan.cache_dir:
        Path(plan.cache_dir).mkdir(parents=True, exist_ok=True)
        env.CacheDir(str(Path(plan.cache_dir) / "scons"), _verified_cache_dir())
        _start_remote(plan)
    _start_exec(plan)
    _FRESH[:] = plan.fresh
    plain, scanned = _builders(env)
    files = _FileNodes(env.fs.File)
    alias = path_aliaser(plan.aliases)
    _ACTIONS[:] = plan.actions
    outputs = []
    for index, action in enumerate(plan.actions):
        identity = json.dumps({"kind": action.kind, "argv": action.argv,
                               "content": action.content, "function": action.function,
                               "params": action.params, "signature": action.signature},
                              sort_keys=True)
        identity = alias(identity)
        targets, sources = files.many(action.outputs), files.many(action.inputs)
        if action.scan_path:
            nodes = scanned(env, targets, sources, OPKG_ACTION=index,
                            CPPPATH=list(action.scan_path))
        else:
            nodes = plain(env, targets, sources, OPKG_ACTION=index)
        if action.step in plan.fresh:     # --no-cache: run it, keep nothing in the cache
            env.AlwaysBuild(nodes)
            env.NoCache(nodes)
        if not action.cacheable:
            env.NoCache(nodes)
        if action.requires:       # order only: in neither the signature nor the remote inputs
            env.Requires(nodes, files.many(action.requires))
        _IDENTITIES.append(identity)
        # the identity is a dependency, not a source: it must not be #include-scanned
        value = [env.Value(identity)]
        for node in nodes:
            node.add_dependency(value)
        outputs.extend(nodes)
    Default(outputs)
    gc.freeze()
    gc.enable()
    _fast_top_targets()
    _report_progress(plan)


def _builders(env) -> tuple:
    """The Builders of steps without and with #include scanning. One of each, made once: what
    env.Command would make anew for every step (the same action and factories, so the same
    signatures and cache keys), which was a third of declaring a few thousand steps."""
    from SCons.Action import Action as SConsAction
    from SCons.Builder import Builder
    from SCons.Scanner.C import CScanner

    # progress comes from our own events
    run = SConsAction(_run, strfunction=None, varlist=["OPKG_CACHE_FORMAT"])
    plain = Builder(action=run, source_factory=env.fs.File, target_factory=env.fs.File)
    scanned = Builder(action=run, source_factory=env.fs.File, target_factory=env.fs.File,
                      source_scanner=CScanner())
    return plain, scanned


class _FileNodes(dict):
    """SCons File nodes by the plan's path: a path many steps name (a shared header, the
    runtime's objects) is looked up in SCons' file system once."""

    def __init__(self, make):
        super().__init__()
        self._make = make

    def __missing__(self, path: str):
        node = self[path] = self._make(path)
        return node

    def many(self, paths) -> list:
        return [self[p] for p in paths]


class _TopTargets(list):
    """The top-level targets, with membership by identity in a set (nodes compare by
    identity anyway)."""

    def __init__(self, nodes):
        super().__init__(nodes)
        self._ids = {id(n) for n in nodes}

    def __contains__(self, node) -> bool:
        return id(node) in self._ids


def _fast_top_targets() -> None:
    """SCons' Taskmaster asks `node in <top-level targets>` (a list) for every node it
    visits: quadratic with every output a default target (13 s of CPU for the ~4000 steps
    of 200 packages). The same answer from a set. (A single Alias as the default target
    would avoid the list, but an Alias hashes every output it names, 80 MB .gch files
    included, on every build.)"""
    import SCons.Taskmaster

    cls = SCons.Taskmaster.Taskmaster
    if getattr(cls, "_opkg_fast_top", False):
        return
    init = cls.__init__

    def __init__(self, targets=[], *args, **kwargs):
        init(self, targets, *args, **kwargs)
        if isinstance(getattr(self, "original_top", None), list):
            self.original_top = _TopTargets(self.original_top)

    cls.__init__ = __init__
    cls._opkg_fast_top = True


def _report_progress(plan: Plan) -> None:
    """For the progress display: how many steps the plan has, and each step SCons finds up to
    date (it runs no action for those, so no start or done would tell)."""
    import SCons.Node
    from SCons.Script import Progress

    emit("plan", steps=len(plan.actions))
    first = {os.path.abspath(a.outputs[0]): a for a in plan.actions if a.outputs}

    def seen(node):
        # called as SCons prepares each node's task; by then it knows whether the node must
        # be built (state 'executing', a cache restore included) or is up to date
        action = first.get(node.get_abspath())
        if action is not None and node.get_state() != SCons.Node.executing:
            emit("uptodate", target=action.target, step=action.step,
                 description=action.description)

    Progress(seen)


def _check_outputs(plan: Plan) -> None:
    """Remove outputs that do not hold what the build wrote, so SCons makes them again."""
    damaged, unknown = _RECORD[0].check([o for a in plan.actions for o in a.outputs])
    for path, why in damaged:
        emit("warning", message=f"{path} does not hold what the build wrote ({why}); "
                                "restoring it")
        Path(path).unlink(missing_ok=True)
    for path in unknown:         # no record of what was written: make it again, quietly
        Path(path).unlink(missing_ok=True)
    for path in sorted(_REPORTS):
        problem = _report_problem(path)
        if problem:
            emit("warning", message=f"{path} is not a verification report ({problem}); "
                                    "removed it, verifying again")
            Path(path).unlink(missing_ok=True)


def _report_problem(path: str) -> str | None:
    """Why the verification report at `path` cannot be used (None: usable, or absent)."""
    from opkg.core.report_schema import read_report

    if not os.path.exists(path):
        return None
    return read_report(path)[1]


def _verified_cache_dir():
    """SCons' CacheDir, with entries that carry their digest (opkg.build.cache): a restore writes
    the output only when its bytes match; a damaged entry is evicted, warned about once, and
    the step runs. (SCons is imported only inside the SCons process.)"""
    import stat

    import SCons.Action
    import SCons.CacheDir

    class VerifiedCacheDir(SCons.CacheDir.CacheDir):
        @classmethod
        def copy_to_cache(cls, env, src, dst):
            digest = cache.write_entry(src, dst)
            os.chmod(dst, stat.S_IMODE(os.stat(src).st_mode) | stat.S_IWRITE)
            if _WRITTEN.get(os.path.abspath(src), digest) != digest:
                # SCons turns this into a warning and keeps the build going, uncached
                raise OSError(f"{src} changed after its step finished")
            return dst

        def retrieve(self, node) -> bool:
            if not self.is_enabled() or not SCons.Action.execute_actions \
                    or SCons.CacheDir.cache_show:
                return super().retrieve(node)
            self.requests += 1
            _, entry = self.cachepath(node)
            if not os.path.isfile(entry) and not _remote_fetch(node, entry):
                return False
            target = node.get_abspath()
            last = node is node.get_executor().get_all_targets()[-1]
            # read before anything is restored: damaged diagnostics make the step run
            diagnostics, problem = cache.read_diagnostics(entry) if last else ([], None)
            if not problem:
                digest, problem = cache.restore_entry(entry, target)
            if not problem and target in _REPORTS:
                # intact bytes are not yet a report: the entry may have been stored so
                problem = _report_problem(target)
                if problem:
                    problem = f"not a verification report: {problem}"
                    os.unlink(target)
            if problem:
                cache.evict(entry)
                emit("warning", message=f"damaged build cache entry {entry} ({problem}); "
                                        "evicted it, running the step instead")
                return False
            try:
                os.chmod(target, stat.S_IMODE(os.stat(entry).st_mode) | stat.S_IWRITE)
                os.utime(entry)      # "last used", for LRU pruning
            except OSError:
                pass
            _RECORD[0].note(target, digest)
            self.hits += 1
            with _print_lock:        # opkg.build.engine counts restores from this line
                sys.stdout.write(f"Retrieved `{node.get_internal_path()}' from cache\n")
                sys.stdout.flush()
            if diagnostics:
                _replay(node, diagnostics)
            return True

        def push(self, node):
            if _input_changed_during_step(node):
                return None
            diagnostics = _DIAGNOSTICS.get(node.get_abspath())
            if diagnostics and self.is_enabled() and not self.is_readonly() and not node.nocache:
                # before the entry: whoever can restore the entry finds its diagnostics
                _, entry = self.cachepath(node)
                try:
                    os.makedirs(os.path.dirname(entry), exist_ok=True)
                    cache.write_diagnostics(entry, diagnostics)
                except OSError:
                    pass     # SCons warns about the entry it cannot write the same way
            pushed = super().push(node)
            if _REMOTE and node is node.get_executor().get_all_targets()[-1]:
                _remote_upload(node)     # after the step's last output went into the cache
            return pushed

    return VerifiedCacheDir


# executor -> whether a source it read changed while it ran: worked out at the push of the
# step's first output, the same for its others
_CHANGED_STEPS: dict = {}


def _input_changed_during_step(node) -> bool:
    """True when a source file the step read is not the file SCons signed before it ran (its
    stat differs from the one SCons took for its signature): the outputs may hold the new
    content under the old content's key, so they are kept out of every cache, and the input's
    signature is dropped, so that the next build runs the step again even if the edit is
    undone. As Bazel's guard against concurrent changes, by the stat signature the fast path
    uses (ctime, mtime, size, inode, mode)."""
    executor = node.get_executor()
    with _print_lock:
        known = _CHANGED_STEPS.get(executor)
    if known is None:
        known = _changed_source(executor, node)
        with _print_lock:
            _CHANGED_STEPS[executor] = known
    return known


def _changed_source(executor, node) -> bool:
    import SCons.Node.FS

    for child in executor.get_all_children():
        if not isinstance(child, SCons.Node.FS.File) or child.has_builder():
            continue     # Values, and outputs of steps (checked by their own step: _WRITTEN)
        before = child._memo.get("stat")
        if before is None:
            continue
        try:
            if stat_signature(os.stat(child.get_abspath())) == stat_signature(before):
                continue
        except OSError:
            pass
        try:
            del child.get_ninfo().csig
        except AttributeError:
            pass
        emit("warning", message=f"{child.get_abspath()} changed while the step that reads "
                                f"it ran ({node.get_internal_path()}); its outputs are not "
                                "cached, and the next build runs it again")
        return True
    return False


def _portable(line: str, package_dir: Path) -> dict:
    """A diagnostic as stored in the cache: a path in the package's own directory relative to
    it, so that a checkout elsewhere sharing the cache shows its own path."""
    prefix = f"{package_dir.resolve()}/"
    if line.startswith(prefix):
        return {"warning": line[len(prefix):], "in_package": True}
    return {"warning": line}


def _replay(node, diagnostics: list) -> None:
    """Show again what the restored step printed when it ran."""
    action = _ACTIONS[node.get_executor().get_build_env()["OPKG_ACTION"]]
    package_dir = _PACKAGE_DIRS.get(action.target)
    for d in diagnostics:
        if not isinstance(d, dict) or not isinstance(d.get("warning"), str):
            continue
        message = d["warning"]
        if d.get("in_package") and package_dir is not None:
            message = f"{package_dir.resolve()}/{message}"
        emit("warning", target=action.target, step=action.step, description=action.description,
             message=message, cached=True)


def _start_remote(plan: Plan) -> None:
    import atexit

    from opkg.remote.config import ENV_RESOLVED, RemoteConfig

    resolved = os.environ.get(ENV_RESOLVED)
    if not resolved:
        return
    from opkg.remote.level import make_level

    level = make_level(RemoteConfig.from_env(resolved), plan, emit)
    _REMOTE[:] = [level]
    atexit.register(level.close)


def _start_exec(plan: Plan) -> None:
    import atexit

    from opkg.remote.config import ENV_EXEC_RESOLVED, RemoteConfig

    resolved = os.environ.get(ENV_EXEC_RESOLVED)
    if not resolved:
        return
    from opkg.remote.execute import make_executor

    # the toolchain's own directories (the sim headers and runtime sources), not the workspace
    # or external repositories: a step's own files among those are declared or scanned
    trees = [d for d, name in plan.aliases.items()
             if d != plan.workspace_root and not name.startswith("@")]
    executor = make_executor(RemoteConfig.from_env(resolved), plan, trees)
    _EXECUTOR[:] = [executor]
    atexit.register(executor.close)


def _remote_execute(node, action: Action) -> str | None:
    """Run the step of `node` on a worker of the remote execution service."""
    from SCons.Node.FS import File

    from opkg.remote.client import Rejected, RemoteError

    index = node.get_executor().get_build_env()["OPKG_ACTION"]
    scanned = [c.get_abspath() for c in node.children() if isinstance(c, File)]
    try:
        # a step run fresh (`opkg test --no-cache`) must not be answered from the server's
        # action cache either
        error, worker = _EXECUTOR[0].run(action, _IDENTITIES[index], scanned,
                                         fresh=action.step in _FRESH)
    except (RemoteError, Rejected) as exc:
        return f"remote execution ({_EXECUTOR[0].config.url}): {exc}"
    emit("remote_exec", target=action.target, step=action.step,
         description=action.description, worker=worker)
    return local_pch_paths(error, _OUTPUT_DIR[0] if _OUTPUT_DIR else None) if error else None


def _remote_action(node):
    """(index, Action, REAPI Action or None) of the step that makes `node`. The input root
    is every file the node depends on: its sources and the headers SCons scanned."""
    from SCons.Node.FS import File

    from opkg.remote.actions import make_action

    index = node.get_executor().get_build_env()["OPKG_ACTION"]
    action = _ACTIONS[index]
    with _remote_lock:
        if index in _REMOTE_ACTIONS:
            return index, action, _REMOTE_ACTIONS[index]
    try:
        inputs = [c.get_abspath() for c in node.children() if isinstance(c, File)]
        remote = make_action(identity=_IDENTITIES[index], argv=action.argv, kind=action.kind,
                             outputs=action.outputs, inputs=inputs, signature=action.signature,
                             paths=_REMOTE[0].paths)
    except OSError:
        remote = None            # an input vanished: SCons will say so when the step runs
    with _remote_lock:
        _REMOTE_ACTIONS[index] = remote
    return index, action, remote


def _remote_fetch(node, entry: str) -> bool:
    """Ask the remote cache for the step of `node`; on a verified hit write `entry` in the
    local cache (as copy_to_cache would), so the local restore takes it from there."""
    if not _REMOTE:
        return False
    from opkg.remote.level import RequiredRemoteFailed

    index, action, remote = _remote_action(node)
    if remote is None:
        return False
    try:
        files = _REMOTE[0].fetch(index, action, remote)
    except RequiredRemoteFailed as exc:
        emit("fail", target=action.target, step=action.step, description=action.description,
             output=str(exc), elapsed=0)
        raise
    got = (files or {}).get(node.get_abspath())
    if got is None:
        return False
    path, executable = got
    Path(entry).parent.mkdir(parents=True, exist_ok=True)
    # hidden while written, as SCons' own pushes are: never counted or pruned as an entry
    tmp = os.path.join(os.path.dirname(entry), f".{os.path.basename(entry)}.remote-"
                                               f"{os.getpid()}-{threading.get_ident()}")
    try:
        cache.write_entry(path, tmp)
        os.chmod(tmp, 0o755 if executable else 0o644)
        os.replace(tmp, entry)
    except OSError:
        Path(tmp).unlink(missing_ok=True)
        return False
    if node is node.get_executor().get_all_targets()[-1]:
        _REMOTE[0].done_with(index)
    return True


def _remote_upload(node) -> None:
    from opkg.remote.level import RequiredRemoteFailed

    index, action, remote = _remote_action(node)
    if remote is None:
        return
    try:
        _REMOTE[0].upload(action, remote, _WRITTEN)
    except RequiredRemoteFailed as exc:
        emit("fail", target=action.target, step=action.step, description=action.description,
             output=str(exc), elapsed=0)
        raise


# the steps remote execution sends to workers (named here, so a build without remote execution
# never imports gRPC)
_REMOTE_STEPS = ("compile", "link", "verify")
_OUTPUT_DIR: list[str] = []              # the plan's output directory, set by declare()
# where a precompiled header and the emulation headers it holds were when it was compiled
_PCH_DIR = re.compile(r"(?<![\w/.-])/[^\s:'\"()]*?/sim/\.pch/")
_SIM_INCLUDE = re.compile(r"(?<![\w/.-])/[^\s:'\"()]*?/opkg/sim/include/")


def local_pch_paths(text: str, output_dir: str | None) -> str:
    """g++ names the files inside a precompiled header by the paths they had when it was
    compiled. One restored from a cache shared with another checkout names that checkout
    (`/home/a/ws/out/sim/.pch/...`, its opkg's `sim/include/...`); a compile error must point
    at this checkout's files, which hold the same bytes (the .gch is keyed on them)."""
    from opkg.sim.flags import include_dir

    if output_dir:
        text = _PCH_DIR.sub(lambda m: str(Path(output_dir) / "sim" / ".pch") + "/", text)
    return _SIM_INCLUDE.sub(lambda m: str(include_dir()) + "/", text)


def _run(target, source, env) -> int:
    action = _ACTIONS[env["OPKG_ACTION"]]
    started = time.monotonic()
    emit("start", target=action.target, step=action.step, description=action.description,
         **({"command": list(action.argv)} if action.kind == "exec" else {}))   # for -v
    try:
        if _EXECUTOR and action.step in _REMOTE_STEPS and action.kind in ("exec", "python"):
            error = _remote_execute(target[0], action)
        elif action.kind == "write":
            atomic_write_text(Path(action.outputs[0]), action.content or "")
            error = None
        elif action.kind == "exec":
            error = _exec(action)
        elif action.kind == "python":
            module, name = action.function.split(":")
            error = getattr(importlib.import_module(module), name)(action.params)
        else:
            error = f"unknown action kind {action.kind!r}"
    except OSError as exc:    # a full disk, no permission: the file and what went wrong
        error = f"cannot write {exc.filename}: {exc.strerror}" if exc.filename else \
            f"{type(exc).__name__}: {exc}"
    except Exception as exc:  # report, never crash SCons with a traceback
        error = f"{type(exc).__name__}: {exc}"
    if not error:
        try:                     # the digest of what was written, for later checks
            for out in action.outputs:
                _WRITTEN[os.path.abspath(out)] = _RECORD[0].note(out)
        except OSError as exc:
            error = f"{exc.filename}: the step did not write it ({exc.strerror})"
    elapsed = round(time.monotonic() - started, 3)
    if error:
        emit("fail", target=action.target, step=action.step, description=action.description,
             output=error, elapsed=elapsed)
        for out in action.outputs:
            Path(out).unlink(missing_ok=True)
        return 1
    emit("done", target=action.target, step=action.step, description=action.description,
         elapsed=elapsed)
    return 0


# Compile steps run through the plan's distcc, if any (opkg.build.distcc); the wrapper is added here,
# when the step runs, so it is part of no step's identity.
_DISTCC: list[dict] = []
_distcc_warned = threading.Lock()         # taken by the one warning that distcc compiled locally


def _distcc_stderr(action: Action, stderr: str, status: int) -> str:
    """The compiler's own messages; distcc's lines go, except that a compile it had to run on
    this machine is said once per build (a compile that failed says why by itself)."""
    own, client = distcc.split_stderr(stderr)
    if status != 0:
        # distcc's own failure (no compiler message) must still say something
        return own if own.strip() else "\n".join(client)
    why = distcc.fallback(client)
    if why and _distcc_warned.acquire(blocking=False):
        # the hosts are named here: a compile that starts after a sibling's failed connect finds
        # the host in distcc's backoff and says only that it ran locally
        emit("warning", target=action.target, step=action.step, description=action.description,
             message=f"distcc compiled on this machine instead (hosts {_DISTCC[0]['hosts']}: "
                     f"{why}); later compiles that fall back are not reported")
    return own


def _exec(action: Action) -> str | None:
    """Run argv with its outputs redirected to temporary names, renamed only on success, so
    an interrupted compile never leaves a half-written object behind."""
    temps = {out: f"{out}.tmp-{os.getpid()}-{threading.get_ident()}" for out in action.outputs}
    argv = [temps.get(arg, arg) for arg in action.argv]
    env = None
    distributed = bool(_DISTCC) and action.step == "compile"
    if distributed:
        argv, env = distcc.wrap(_DISTCC[0], argv)
    for out in action.outputs:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
    try:
        with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=env) as proc:
            checkpoint("exec")          # a test hook: a compiler is running
            stdout, stderr = proc.communicate()
        if distributed:
            stderr = _distcc_stderr(action, stderr, proc.returncode)
        if proc.returncode != 0:
            return local_pch_paths((stderr + stdout).strip(), _OUTPUT_DIR[0] if _OUTPUT_DIR
                                   else None) or f"exit status {proc.returncode}"
        for out, tmp in temps.items():
            os.replace(tmp, out)
        package_dir = _PACKAGE_DIRS.get(action.target)
        if ": warning: " in stderr and package_dir is not None:
            from opkg.importers.opdef import own_warnings

            lines = own_warnings(stderr, package_dir)
            for line in lines:
                emit("warning", target=action.target, step=action.step,
                     description=action.description, message=line)
            if lines:
                _DIAGNOSTICS[os.path.abspath(action.outputs[-1])] = [
                    _portable(line, package_dir) for line in lines]
        return None
    except OSError as exc:
        return f"cannot run {argv[0]}: {exc.strerror}"
    finally:
        for tmp in temps.values():
            Path(tmp).unlink(missing_ok=True)
