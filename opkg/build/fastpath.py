"""The null-build fast path: prove that nothing changed since the last build of the same
request in which every step ran, without parsing manifests, planning or starting SCons, and
return its result (a failed verification is a result: the same inputs give the same reports).

After such a build the engine records a *snapshot* of everything the build depended on:

- the stat signature (mtime_ns, ctime_ns, size, inode, mode) of every file AND every directory
  under the package roots and the external repositories' path checkouts (a git checkout in
  the cache, named by its pinned commit, only by its presence) (a directory's mtime changes when an entry is added, removed or
  renamed, so new, deleted and renamed files are seen), the workspace file, the workspace's
  toolchains/ data, opkg.lock and SConstruct;
- opkg's own code and emulation headers (they decide flags, generated code and the fingerprint);
- the compiler the sim toolchain would use (CXX resolved along PATH) and its stat;
- the environment variables that can change a plan or a command (CXX, PATH, OPKG_*, ASCEND_*...);
- the git commit and dirty flag (bundle provenance depends on them);
- the stat of every output (binaries, reports, bundles), taken after the build, and only when
  it is the stat the build recorded with the output's digest (opkg.build.outputs): a record never
  vouches for an output whose content is not known to be what the build wrote.

Input stats are taken BEFORE the build starts, so a file edited while the build runs differs
from the record next time. The next build with the same request takes a fresh snapshot and
compares: any difference, missing record or unreadable file means "not proven", and the normal
path (plan + SCons) runs. The fast path can only ever fall back to the slow path, never skip it
when something differs.

Racy timestamps (git's racy-index rule): a write in the same timestamp tick as the snapshot may
leave mtime, ctime and size unchanged. Entries whose mtime or ctime is not older than the
snapshot time minus the filesystem's granularity are therefore *racy*: their content digest (for a
directory, its listing) is recorded too and re-checked next time. Timestamps in the future (clock
skew) are racy by the same rule, so they are always content-checked.

When a CANN installation is visible the fast path is not used: toolkit trees are large and
their identity is decided by discovery, so those builds always take the full path.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from opkg.core.statsig import is_racy, stat_signature

FORMAT = 1
# Environment variables that can change what a build plans or what its commands produce.
ENV_NAMES = ("CXX", "CC", "PATH", "HOME", "XDG_CACHE_HOME", "PYTHONPATH", "PYTHONHOME",
             "CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "LIBRARY_PATH", "LD_LIBRARY_PATH",
             "GCC_EXEC_PREFIX", "COMPILER_PATH", "SOURCE_DATE_EPOCH")
ENV_PREFIXES = ("OPKG_", "ASCEND_", "CANN_", "GIT_")
# how the build is run, not what it makes: `OPKG_SERVER=1` proves the same null build as without
ENV_IGNORED = ("OPKG_SERVER", "OPKG_SERVER_IDLE", "OPKG_SERVER_WATCH")
# Workspace-level files a plan reads besides the manifests (absent ones are recorded as absent).
WORKSPACE_FILES = ("opkg-workspace.yaml", "opkg.lock", "SConstruct")
WORKSPACE_DIRS = ("toolchains",)
SKIP_DIRS = {"__pycache__", ".git"}
OPKG_DIR = Path(__file__).resolve().parent.parent
# A resident build server (opkg.build.server) that watches every input for changes: it answers
# `recall(key, signature)` with a result this process proved unchanged at its current
# `generation`, and keeps what `remember` gives it. None in a plain `opkg` process.
RESIDENT = None


def _content(path: str, sig: list[int]) -> str | None:
    """The digest that stands in for a racy entry's stat: file bytes, or a directory's names."""
    try:
        if sig[4] & 0o170000 == 0o040000:
            data = "\0".join(sorted(os.listdir(path))).encode()
        elif sig[4] & 0o170000 == 0o120000:     # a link to a directory: where it points
            data = os.readlink(path).encode()
        else:
            with open(path, "rb") as fh:
                data = fh.read()
    except OSError:
        return None
    return hashlib.sha256(data).hexdigest()


def _stat(path: str) -> list[int] | None:
    try:
        return stat_signature(os.stat(path))
    except OSError:
        return None


def _walk(root: str, out: dict, skip: set[str], outward: list | None = None) -> None:
    """Stat every directory and file below root. A link to a file is followed (its target is
    what the compiler reads); a link to a directory is never walked: one into root is walked at
    its real place anyway, one out of root is listed in `outward` (a link to / would otherwise
    walk the whole file system, /proc included), which keeps the fast path from claiming a
    null build it cannot prove."""
    real_root = os.path.realpath(root)
    stack = [root]
    while stack:
        d = stack.pop()
        try:
            with os.scandir(d) as entries:
                found = list(entries)
        except OSError:
            out[d] = None
            continue
        for e in found:
            if e.name in SKIP_DIRS or e.path in skip:
                continue
            try:
                link = e.is_symlink()
                st = e.stat(follow_symlinks=not link or not _is_dir_link(e.path))
            except OSError:
                out[e.path] = None
                continue
            out[e.path] = stat_signature(st)
            if link and _is_dir_link(e.path):
                target = os.path.realpath(e.path)
                if os.path.commonpath([real_root, target]) != real_root and outward is not None:
                    outward.append(e.path)
            elif e.is_dir(follow_symlinks=False):
                stack.append(e.path)


def _outside(links: list[str], roots: list[str]) -> list[str]:
    """The links to directories whose targets lie in none of the walked trees `roots` (an
    imported operator's kernel tree links into its repository's checkout, walked as an
    external repository: covered)."""
    real = [os.path.realpath(r) for r in roots]
    return [link for link in links
            if not any(os.path.commonpath([r, os.path.realpath(link)]) == r for r in real)]


def _is_dir_link(path: str) -> bool:
    try:
        return os.path.isdir(path)      # follows the link
    except OSError:
        return False


def request_key(patterns, cwd: Path, **options) -> str:
    """Records are per request: the same targets, SoCs, toolchain and modes, from the same cwd
    (relative patterns resolve against it)."""
    data = json.dumps({"patterns": list(patterns or []), "cwd": str(cwd),
                       **{k: (list(v) if isinstance(v, (tuple, list)) else v)
                          for k, v in sorted(options.items())}}, sort_keys=True)
    return hashlib.sha256(data.encode()).hexdigest()[:24]


# The places CANN discovery (opkg.toolchains.discovery) looks first; mirrored here because that
# module's imports cost more than the whole fast path. tests/test_fastpath.py keeps them equal.
TOOLKIT_ENV_VARS = ("ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME", "ASCEND_CANN_PACKAGE_PATH")


def ascend_roots(env) -> list[Path]:
    if env.get("OPKG_ASCEND_ROOTS") is not None:
        return [Path(r) for r in env["OPKG_ASCEND_ROOTS"].split(os.pathsep) if r]
    found = [Path("/usr/local/Ascend")]
    if env.get("HOME"):
        found.append(Path(env["HOME"]) / "Ascend")
    return found


def _cann_visible(env) -> bool:
    if any(env.get(v) for v in TOOLKIT_ENV_VARS):
        return True
    info = env.get("OPKG_ASCEND_INSTALL_INFO", "/etc/ascend_install.info")
    return any(p.exists() for p in ascend_roots(env)) or bool(info and Path(info).exists())


def _compiler(env) -> str | None:
    path = shutil.which(env.get("CXX", "g++"), path=env.get("PATH"))
    return str(Path(path).resolve()) if path else None


def _git_start(root: Path):
    # one process gives both the commit (branch.oid) and the dirty flag plan.git_state reports
    try:
        return subprocess.Popen(["git", "status", "--porcelain=v2", "--branch",
                                 "--untracked-files=no"], cwd=root, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
    except OSError:
        return None


def _git_finish(proc) -> list:
    if proc is None:
        return [None, None]
    try:
        out, _ = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return ["unknown", None]
    if proc.returncode != 0:
        return [None, None]
    commit, dirty = None, False
    for line in out.splitlines():
        if line.startswith("# branch.oid "):
            commit = line.split()[2]
        elif not line.startswith("#") and line.strip():
            dirty = True
    if commit in (None, "(initial)"):
        return [None, None]       # git rev-parse HEAD fails there too
    return [commit, dirty]


def snapshot(ws, now_ns: int | None = None) -> dict | None:
    """Everything a build of this workspace depends on, as of now (None: not provable here).
    `now_ns` stands in for the clock (tests place the snapshot in a file's timestamp tick)."""
    env = os.environ
    if _cann_visible(env):
        return None
    now = time.time_ns() if now_ns is None else now_ns
    git = _git_start(ws.root)
    files: dict[str, list[int] | None] = {}
    outward: list[str] = []
    skip = {str(ws.settings.output_dir)}
    walked: set[str] = set()      # the trees walked: links into any of them are covered
    for root in ws.settings.package_roots:
        files[str(root)] = _stat(str(root))
        if files[str(root)] is not None:
            _walk(str(root), files, skip, outward)
            walked.add(str(root))
    for name in WORKSPACE_FILES:
        files[str(ws.root / name)] = _stat(str(ws.root / name))
    for name in WORKSPACE_DIRS:
        d = str(ws.root / name)
        files[d] = _stat(d)
        if files[d] is not None:
            _walk(d, files, skip, outward)
            walked.add(d)
    # external repositories (docs/repositories.md): a path checkout's files are inputs like a
    # package's; a git checkout in the cache is named by its commit (the workspace file pins
    # it) and never changes, so its presence is enough (--locked digests its files)
    for root, walk in _repository_roots(ws):
        files[root] = _stat(root)
        if files[root] is not None and walk:
            _walk(root, files, skip, outward)
            walked.add(root)
    _walk(str(OPKG_DIR), files, set(), outward)
    outward = _outside(outward, sorted(walked))
    cxx = _compiler(env)
    if cxx:
        files[cxx] = _stat(cxx)
    snap = {
        "time_ns": now,
        "python": [sys.executable, sys.version],
        "env": _build_env(env),
        "compiler": cxx,
        "files": files,
        "git": _git_finish(git),
        "outward_links": sorted(outward),
    }
    snap["racy"] = _racy_digests(files, now)
    return snap


def _repository_roots(ws) -> list[tuple[str, bool]]:
    """(root, walk it) of each external repository, known without fetching: a git
    repository's checkout in the cache is named by its commit and not walked."""
    specs = ws.settings.repositories
    if not specs:
        return []
    from opkg.core.external.fetch import planned_root

    return sorted((str(planned_root(s, ws.root, ws.settings.cache_dir)), s.path is not None)
                  for s in specs.values())


def _racy_digests(files: dict, now_ns: int) -> dict[str, str | None]:
    return {p: _content(p, s) for p, s in files.items() if is_racy(s, now_ns)}


def difference(old: dict, new: dict) -> str | None:
    """Why `new` is not provably the same as `old`, or None when it is."""
    if new.get("outward_links"):
        return (f"{new['outward_links'][0]} links to a directory outside its tree, which the "
                "fast path does not walk")
    oe, ne = old.get("env", {}), new.get("env", {})
    for name in sorted(set(oe) | set(ne)):
        if oe.get(name) != ne.get(name):
            return f"environment variable {name} changed"
    words = {"python": "the Python interpreter", "compiler": "the C++ compiler (CXX on PATH)",
             "git": "the git commit or dirty state"}
    for key, what in words.items():
        if old.get(key) != new.get(key):
            return f"{what} changed"
    of, nf = old["files"], new["files"]
    if of.keys() != nf.keys():
        added = sorted(nf.keys() - of.keys())
        removed = sorted(of.keys() - nf.keys())
        return f"{(added or removed)[0]} {'appeared' if added else 'disappeared'}"
    for path, sig in nf.items():
        if of[path] != sig:
            return f"{path} changed"
    return _racy_changed(old.get("racy", {}), nf)


def _racy_changed(racy: dict, current: dict) -> str | None:
    for path, digest in racy.items():
        sig = current.get(path)
        if digest is None or sig is None or _content(path, sig) != digest:
            return f"{path} changed (same timestamp as the last build)"
    return None


class FastPath:
    """One request's record: `reuse()` before planning, `record()` after a build."""

    def __init__(self, ws, patterns, **options):
        self.ws = ws
        self.key = request_key(patterns, Path.cwd(), **options)
        self.path = Path(ws.settings.output_dir) / ".opkg" / "fastpath" / f"{self.key}.json"
        self.snap = None
        self.reason = None          # why the last reuse() did not apply
        self.notes: list[dict] = []

    def observe(self, on_event):
        """Wrap the progress callback to keep resolution notes, replayed on a reuse."""
        def seen(event):
            if event.get("event") == "note":
                self.notes.append(event)
            if on_event:
                on_event(event)
        return seen

    def reuse(self, on_event=None):
        """The previous BuildResult if nothing it depended on changed, else None."""
        started = time.monotonic()
        resident = RESIDENT
        if resident is not None:
            # taken before the snapshot: an event while it runs moves the generation on
            generation = resident.generation
            signature = _signature(os.environ)
            hit = resident.recall(self.key, signature)
            if hit is not None:
                rec, result = hit
                if on_event:
                    for note in rec.get("notes", []):
                        on_event(note)
                return _again(result, time.monotonic() - started)
        self.snap = snapshot(self.ws)
        if self.snap is None:
            self.reason = "a CANN installation is visible"
            return None
        try:
            rec = json.loads(self.path.read_text())
        except FileNotFoundError:
            self.reason = "no record of a previous build of this request"
            return None
        except (OSError, ValueError, RecursionError):
            rec = None
        if isinstance(rec, dict) and rec.get("format") != FORMAT:
            self.reason = "record from another opkg version"
            return None
        # out/ may come from elsewhere (a CI artefact): a record of the wrong shape is
        # evicted with one warning, and the build goes through SCons
        try:
            if not isinstance(rec, dict):
                raise TypeError("not a JSON object")
            self.reason = difference(rec["inputs"], self.snap) or _outputs_changed(rec["outputs"])
            if self.reason:
                return None
            result = _result(rec, time.monotonic() - started)
            notes = [n for n in rec.get("notes", []) if isinstance(n, dict) and "event" in n]
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            self.reason = "its record is malformed"
            self.invalidate()
            if on_event:
                on_event({"event": "warning", "message": f"{self.path} is not a fast-path record "
                          f"({type(exc).__name__}: {exc}); removed it, checking the build"})
            return None
        if on_event:
            for note in notes:
                on_event(note)
        if resident is not None:
            resident.remember(self.key, generation, signature, ({"notes": notes}, result),
                              outputs=rec["outputs"]["files"])
        return result

    def invalidate(self) -> None:
        """Before a full build: an interrupted or failed one must leave no record behind."""
        try:
            self.path.unlink()
        except OSError:
            pass

    def record(self, result) -> None:
        from opkg.util.fsutil import atomic_write_text

        # every step ran (a failed step runs again next time, as Bazel reruns failed
        # actions); a verification that failed is a result like any other: the same inputs
        # give the same reports, which the next build would find up to date anyway
        if self.snap is None or result.problems or result.failures or any(
                t.not_run for t in result.targets):
            return
        plan = result.plan
        # the bundles of targets that failed verification were taken away (results.read_target)
        withheld = {r.id for r in result.verification_failed}
        paths = {o for a in plan.actions for o in a.outputs}
        absent = set()
        for t in plan.targets:
            paths.update(t.reports.values())
            if t.bundle:
                paths.add(t.bundle)
                if t.id in withheld:
                    absent.add(t.bundle)
        now = time.time_ns()
        outputs = {p: _stat(p) for p in sorted(paths)}
        if any(s is None for p, s in outputs.items() if p not in absent):
            return                  # something the plan promised is missing: prove nothing
        from opkg.build.outputs import OutputRecord

        if OutputRecord(plan.output_dir).unverified(paths - absent):
            return                  # changed since it was written: the next build checks it
        # compact: json's C encoder runs only without indent (the record stats every file)
        atomic_write_text(self.path, json.dumps({
            "format": FORMAT, "inputs": self.snap,
            "outputs": {"files": outputs, "racy": _racy_digests(outputs, now)},
            "notes": self.notes,
            "result": {"bundled": result.bundled,
                       # no plan digest: serialising a large plan again costs more than the
                       # whole fast path, and the inputs above already determine the plan
                       "plan": {"workspace_root": plan.workspace_root,
                                "output_dir": plan.output_dir, "cache_dir": plan.cache_dir},
                       "targets": [vars(t) for t in plan.targets]},
        }, sort_keys=True) + "\n")


def _build_env(env) -> dict:
    return {k: v for k, v in env.items()
            if (k in ENV_NAMES or k.startswith(ENV_PREFIXES)) and k not in ENV_IGNORED}


def _signature(env) -> list:
    """What a snapshot holds besides files, which a file-system watcher does not see: the
    environment, the interpreter, the compiler found along PATH (and its stat), CANN."""
    cxx = _compiler(env)
    return [_build_env(env), sys.executable, sys.version, cxx, _stat(cxx) if cxx else None,
            _cann_visible(env)]


def _again(result, elapsed: float):
    """A remembered result, answered again (only its time is new)."""
    import copy

    again = copy.copy(result)
    again.elapsed = elapsed
    return again


def _outputs_changed(outputs: dict) -> str | None:
    for path, sig in outputs["files"].items():
        if _stat(path) != sig:
            return f"{path} changed or was deleted"
    return _racy_changed(outputs.get("racy", {}), {p: _stat(p) for p in outputs.get("racy", {})})


def _result(rec: dict, elapsed: float):
    from opkg.build.results import BuildResult, read_target
    from opkg.core.actions import Plan, Target

    r = rec["result"]
    p = r["plan"]
    targets = [Target(**t) for t in r["targets"]]
    # nothing runs on this path, so the result's plan has no actions
    plan = Plan(p["workspace_root"], p["output_dir"], p["cache_dir"], targets, [])
    return BuildResult(plan, [read_target(t, False) for t in targets], [], 0, 0, elapsed, [],
                       bundled=r["bundled"])
