"""The build plan: pure data saying which files to make, from what, by which command.

The planner turns selected Packages into Targets (package x SoC x toolchain) and asks each
toolchain backend for the Actions that produce a target's binaries, verification reports and
bundle. The plan is written as JSON and handed to SCons (SConstruct + opkg.scons_glue), which
only translates Actions into SCons nodes: all decisions are made here, where they can be tested
without running anything.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING

from opkg import __version__
from opkg.model import SimModes

if TYPE_CHECKING:
    # type only: reading a plan back (the null-build fast path) needs no manifest parsing code
    from opkg.manifest import Package

PLAN_VERSION = 1


@dataclass(frozen=True)
class Action:
    """One step. kind: 'write' (outputs[0] gets `content`), 'exec' (run argv), or 'python'
    (call `function`, a 'module:name', with `params`)."""

    kind: str
    outputs: tuple[str, ...]
    inputs: tuple[str, ...] = ()
    argv: tuple[str, ...] = ()
    content: str | None = None
    function: str | None = None
    params: dict = field(default_factory=dict)
    scan_path: tuple[str, ...] = ()   # scan C/C++ #includes of inputs along this path
    # made before this step but not part of its identity: a file whose bytes follow from the
    # step's own argv and signature (a precompiled header, whose bytes g++ does not reproduce)
    requires: tuple[str, ...] = ()
    signature: str = ""               # extra identity (toolchain fingerprint): change = rebuild
    target: str = ""                  # the Target id this step belongs to
    step: str = ""                    # 'compile', 'link', 'verify', 'bundle', ...; an exec
                                      # 'compile' is one C++ compile (distcc may run it)
    description: str = ""


@dataclass(frozen=True)
class Target:
    id: str               # //packages/layernorm@Ascend910B1@sim
    package: str          # label
    name: str
    version: str
    soc: str
    toolchain: str
    bundle: str           # path of the bundle file
    reports: dict         # variant name -> verification.json path


@dataclass
class Plan:
    workspace_root: str
    output_dir: str
    cache_dir: str | None
    targets: list[Target]
    actions: list[Action]
    version: int = PLAN_VERSION
    # absolute path prefix -> placeholder, applied to each action's identity so that the same
    # work in another checkout (or another opkg install) has the same cache key
    aliases: dict = field(default_factory=dict)
    # how compile steps run (opkg.distcc.Distcc.to_plan()), not what they are: part of no
    # action's identity, so objects and cache keys are the same with distcc on or off
    distcc: dict | None = None

    def to_json(self) -> dict:
        """JSON-able data (shared, not copied: dataclasses.asdict would deep-copy every argv and
        params dict, a large part of planning at a few hundred packages)."""
        return {"version": self.version, "workspace_root": self.workspace_root,
                "output_dir": self.output_dir, "cache_dir": self.cache_dir,
                "aliases": self.aliases, "distcc": self.distcc,
                "targets": [_shallow(t, _TARGET_FIELDS) for t in self.targets],
                "actions": [_shallow(a, _ACTION_FIELDS) for a in self.actions]}

    @classmethod
    def from_json(cls, data: dict) -> "Plan":
        def action(a):
            a = dict(a)
            for key in ("outputs", "inputs", "argv", "scan_path", "requires"):
                a[key] = tuple(a.get(key, ()))
            return Action(**a)

        return cls(data["workspace_root"], data["output_dir"], data["cache_dir"],
                   [Target(**t) for t in data["targets"]], [action(a) for a in data["actions"]],
                   data["version"], data.get("aliases", {}), data.get("distcc"))

    def digest(self) -> str:
        return sha256_text(json.dumps(self.to_json(), sort_keys=True))


_ACTION_FIELDS = tuple(f.name for f in fields(Action))
_TARGET_FIELDS = tuple(f.name for f in fields(Target))


def _shallow(obj, names: tuple[str, ...]) -> dict:
    return {n: getattr(obj, n) for n in names}


def sha256_text(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def digest_files(paths, root: Path, names: dict | None = None) -> str:
    """A digest over file names (relative to root, or named through `names`: an absolute
    prefix -> its placeholder, such as an external repository's `@repo/`) and contents,
    order-independent."""
    h = hashlib.sha256()
    for path in sorted(Path(p) for p in paths):
        try:
            name = path.relative_to(root).as_posix()
        except ValueError:
            name = alias_paths(path.as_posix(), names) if names else path.as_posix()
        h.update(name.encode() + b"\0")
        h.update(hashlib.sha256(path.read_bytes()).digest())
    return "sha256:" + h.hexdigest()


def git_state(root: Path) -> tuple[str | None, bool | None]:
    """(commit, dirty) of the workspace's git checkout, or (None, None) outside git."""
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True,
                                text=True, timeout=10)
        if commit.returncode != 0:
            return None, None
        status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                                cwd=root, capture_output=True, text=True, timeout=10)
        return commit.stdout.strip(), bool(status.stdout.strip())
    except (OSError, subprocess.SubprocessError):
        return None, None


@dataclass(frozen=True)
class BuildRequest:
    """What the user asked for, after flag parsing."""

    packages: tuple[Package, ...]
    socs: tuple[str, ...] | None = None       # None: each package's own SoCs
    toolchain: str | None = None              # what --toolchain asked for
    verify: bool = True
    bundle: bool = True
    resolution: object = None                 # toolchains.resolve.Resolution: who builds what
    lock_digest: str | None = None            # opkg.lock's digest, for bundle provenance
    modes: SimModes = SimModes()              # --sync-check, --lenient-copy: how the sim verifies


def make_plan(ws, request: BuildRequest) -> Plan:
    """Targets and actions for the requested packages (library packages produce none)."""
    from opkg.errors import UsageError
    from opkg.socs import get_soc
    from opkg.toolchains import get_toolchain

    out = ws.settings.output_dir
    commit, dirty = git_state(ws.root)
    targets: list[Target] = []
    actions: list[Action] = []
    for pkg in request.packages:
        if not pkg.is_operator:
            continue
        socs = pkg.socs
        if request.socs:
            unsupported = [s for s in request.socs if s not in pkg.socs]
            if unsupported and len(request.packages) == 1:
                raise UsageError(f"{pkg.label} does not declare SoC(s) "
                                 f"{', '.join(unsupported)}",
                                 hint=f"its socs: {', '.join(pkg.socs)}; add the SoC to its "
                                      "manifest if the kernel supports it")
            socs = tuple(s for s in pkg.socs if s in request.socs)
        deps = ws.deps_of(pkg.label)
        for soc_name in socs:
            soc = get_soc(soc_name, ws.root)
            choice = request.resolution.choice(pkg.label, soc_name) \
                if request.resolution is not None else None
            tc_id = choice.toolchain if choice else (request.toolchain or "sim")
            toolchain = get_toolchain(tc_id, ws)
            target, steps = toolchain.plan_target(
                pkg, soc, deps, out, provenance={"git_commit": commit, "git_dirty": dirty,
                                                 "opkg_version": __version__,
                                                 "lock_digest": request.lock_digest},
                verify=request.verify, bundle=request.bundle, modes=request.modes)
            targets.append(target)
            actions.extend(steps)
    aliases = {str(ws.root): "<workspace>"}
    # an external repository's files are named by the repository, wherever it is checked out
    for pkg in request.packages:
        for name, root in pkg.repositories:
            aliases[str(root)] = f"@{name}/"
    for tc_id in sorted({t.toolchain for t in targets}):
        aliases.update(getattr(get_toolchain(tc_id, ws), "aliases", dict)())
    return Plan(str(ws.root), str(out), str(ws.settings.cache_dir) if ws.settings.cache_dir
                else None, targets, _dedupe(actions), aliases=aliases)


def _dedupe(actions: list[Action]) -> list[Action]:
    """Targets of one package share its host library: keep the first action per output."""
    seen: set[str] = set()
    out = []
    for a in actions:
        if a.outputs[0] in seen:
            continue
        seen.update(a.outputs)
        out.append(a)
    return out


def write_plan(plan: Plan, path: Path) -> None:
    from opkg.fsutil import atomic_write_text

    # compact: json's C encoder runs only without indent (5x faster on a large plan)
    atomic_write_text(path, json.dumps(plan.to_json(), sort_keys=True) + "\n")


def python_executable() -> str:
    return os.environ.get("OPKG_PYTHON") or sys.executable


def alias_paths(text: str, aliases: dict) -> str:
    """Replace each absolute path prefix in `aliases` by its placeholder, longest first, and
    only where a whole path component ends (a '/', a quote, the end): the workspace /w/b must
    not turn a compiler at /w/bin/g++ into '<workspace>in/g++'."""
    import re

    for prefix in sorted(aliases, key=len, reverse=True):
        text = re.sub(re.escape(prefix.rstrip("/")) + r'(?=/|"|$)',
                      lambda _m, a=aliases[prefix]: a, text)
    return text
