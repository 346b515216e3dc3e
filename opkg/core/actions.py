"""The plan's vocabulary: Actions, Targets and the Plan that holds them, as pure data.

Toolchain backends produce Actions; the build plans, runs and records them; the remote cache
turns them into REAPI actions. JSON in and out (`Plan.to_json` / `Plan.from_json`), so the plan
crosses into the SCons process as a file.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from dataclasses import dataclass, field, fields
from pathlib import Path

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
    # False for a step whose outputs on disk are more than it can declare (msopgen's project
    # tree): a cache restore would bring back only the declared files, so it always runs
    cacheable: bool = True
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
    # how compile steps run (opkg.build.distcc.Distcc.to_plan()), not what they are: part of no
    # action's identity, so objects and cache keys are the same with distcc on or off
    distcc: dict | None = None
    # steps (Action.step) that run whatever the cache holds or SCons thinks up to date, and
    # push nothing to the cache: ("verify",) for `opkg test --no-cache`
    fresh: tuple = ()
    # custom packages holding several packages' operators (one .run per vendor and toolchain:
    # CannToolchain.plan_package_set): [{"vendor", "run", "toolchain", "packages", ...}]
    custom_packages: list = field(default_factory=list)

    def to_json(self) -> dict:
        """JSON-able data (shared, not copied: dataclasses.asdict would deep-copy every argv and
        params dict, a large part of planning at a few hundred packages)."""
        return {"version": self.version, "workspace_root": self.workspace_root,
                "output_dir": self.output_dir, "cache_dir": self.cache_dir,
                "aliases": self.aliases, "distcc": self.distcc, "fresh": list(self.fresh),
                "custom_packages": self.custom_packages,
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
                   data["version"], data.get("aliases", {}), data.get("distcc"),
                   tuple(data.get("fresh", ())), data.get("custom_packages", []))

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


def python_executable() -> str:
    return os.environ.get("OPKG_PYTHON") or sys.executable


def alias_paths(text: str, aliases: dict) -> str:
    """Replace each absolute path prefix in `aliases` by its placeholder, longest first, and
    only where a whole path component ends (a '/', a quote, the end): the workspace /w/b must
    not turn a compiler at /w/bin/g++ into '<workspace>in/g++'."""
    return path_aliaser(aliases)(text)


def path_aliaser(aliases: dict):
    """alias_paths(text, aliases) as a function of text, its patterns compiled once (a plan
    aliases every step's identity with the same ones)."""
    import re

    subs = [(re.compile(re.escape(prefix.rstrip("/")) + r'(?=/|"|$)'), aliases[prefix])
            for prefix in sorted(aliases, key=len, reverse=True)]

    def alias(text: str) -> str:
        for pattern, placeholder in subs:
            text = pattern.sub(lambda _m, a=placeholder: a, text)
        return text

    return alias
