"""The build plan: which files to make, from what, by which command.

The planner turns selected Packages into Targets (package x SoC x toolchain) and asks each
toolchain backend for the Actions that produce a target's binaries, verification reports and
bundle. The plan is written as JSON and handed to SCons (SConstruct + opkg.build.scons_glue), which
only translates Actions into SCons nodes: all decisions are made here, where they can be tested
without running anything.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from opkg import __version__
from opkg.core.actions import Action, Plan, Target
from opkg.core.manifest import cases_for
from opkg.core.model import SimModes

if TYPE_CHECKING:
    # type only: reading a plan back (the null-build fast path) needs no manifest parsing code
    from opkg.core.manifest import Package


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
    select: object = None                     # verify.select.Selection: -k, --lf, --case


def make_plan(ws, request: BuildRequest) -> Plan:
    """Targets and actions for the requested packages (library packages produce none)."""
    from opkg.util.memo import planning_pass

    with planning_pass():
        return _make_plan(ws, request)


def _make_plan(ws, request: BuildRequest) -> Plan:
    from opkg.core.errors import UsageError
    from opkg.toolchains import get_toolchain

    out = ws.settings.output_dir
    commit, dirty = git_state(ws.root)
    targets: list[Target] = []
    actions: list[Action] = []
    sets: dict = {}                # toolchain id -> package label -> (pkg, deps, socs, target)
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
            soc = ws.socs.get_soc(soc_name)
            if request.select and not _selected(pkg, soc, request.select):
                continue        # no case of this (package, SoC) selected: nothing to build
            choice = request.resolution.choice(pkg.label, soc_name) \
                if request.resolution is not None else None
            tc_id = choice.toolchain if choice else (request.toolchain or "sim")
            toolchain = get_toolchain(tc_id, ws)
            target, steps = toolchain.plan_target(
                pkg, soc, deps, out, provenance={"git_commit": commit, "git_dirty": dirty,
                                                 "opkg_version": __version__,
                                                 "lock_digest": request.lock_digest},
                verify=request.verify, bundle=request.bundle, modes=request.modes,
                **({"select": request.select} if request.select else {}))
            targets.append(target)
            actions.extend(steps)
            sets.setdefault(tc_id, {}).setdefault(pkg.label, (pkg, deps, [], target.id))[2] \
                .append(soc_name)
    # several packages built with one CANN toolchain: also one custom package (one .run) for
    # all their operators and SoCs, as one CANN project builds them
    custom = []
    for tc_id, members in sets.items():
        plan_set = getattr(get_toolchain(tc_id, ws), "plan_package_set", None)
        if plan_set is not None and len(members) > 1 and request.bundle:
            first = next(iter(members.values()))[3]
            steps, info = plan_set([m[:3] for m in members.values()], out, first)
            actions.extend(steps)
            custom.append(info)
    aliases = {str(ws.root): "<workspace>"}
    # an external repository's files are named by the repository, wherever it is checked out
    for pkg in request.packages:
        for name, root in pkg.repositories:
            aliases[str(root)] = f"@{name}/"
    for tc_id in sorted({t.toolchain for t in targets}):
        aliases.update(getattr(get_toolchain(tc_id, ws), "aliases", dict)())
    return Plan(str(ws.root), str(out), str(ws.settings.cache_dir) if ws.settings.cache_dir
                else None, targets, _dedupe(actions), aliases=aliases,
                custom_packages=custom)


def _selected(pkg, soc, select) -> bool:
    if pkg.verify is None:
        return False
    outputs = [t.name for t in pkg.op.outputs]
    return any(select.keep(pkg.label, soc.name, v.name, c.name, tuple(d for _, d in v.dtypes),
                           pkg.name)
               for v in pkg.op.for_soc(soc.short).variants()
               for c in cases_for(pkg.verify.cases, v, outputs))


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
    from opkg.util.fsutil import atomic_write_text

    # compact: json's C encoder runs only without indent (5x faster on a large plan)
    atomic_write_text(path, json.dumps(plan.to_json(), sort_keys=True) + "\n")
