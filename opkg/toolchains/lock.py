"""opkg.lock: the resolved toolchain of every (package, SoC), written by `opkg lock` and
enforced by `opkg build --locked`.

The file is TOML: a version line, then one `[[target]]` group per (package, SoC), sorted by
package then SoC, each field on its own line. Adding or changing one package touches only its
own groups, so merges rarely conflict. A fingerprint is the toolkit's digest (compiler binaries
and version files, see discovery.Toolkit.fingerprint) or, for sim, the sim backend's.

This module formats, parses and compares; the CLI decides when to write or check.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from opkg.core.errors import Location, ManifestError, ToolchainError

LOCK_FILE = "opkg.lock"
LOCK_VERSION = 1
FIELDS = ("package", "soc", "toolchain", "version", "fingerprint")
HEADER = ("# opkg.lock: the toolchain each (package, SoC) builds with. Written by `opkg lock`;\n"
          "# `opkg build --locked` fails when resolution differs. Commit it; do not edit it.\n")


@dataclass(frozen=True, order=True)
class LockEntry:
    package: str        # label
    soc: str
    toolchain: str      # sim | cann-<version>
    version: str        # CANN version, or opkg's version for sim
    fingerprint: str

    @property
    def key(self) -> tuple[str, str]:
        return self.package, self.soc


def entries_from(resolution, sim_identity=None) -> list[LockEntry]:
    """Lock entries for a Resolution. `sim_identity()` -> (version, fingerprint) of sim;
    by default asked of the sim backend."""
    out = []
    for c in resolution.choices:
        if c.toolkit is not None:
            out.append(LockEntry(c.package, c.soc, c.toolchain, str(c.toolkit.version),
                                 c.toolkit.fingerprint()))
        else:
            if sim_identity is None:
                sim_identity = _sim_identity
            version, fp = sim_identity()
            out.append(LockEntry(c.package, c.soc, c.toolchain, version, fp))
    return sorted(out)


def _sim_identity() -> tuple[str, str]:
    from opkg.toolchains import get_toolchain

    sim = get_toolchain("sim")
    return sim.version(), sim.fingerprint()


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render(entries) -> str:
    lines = [HEADER, f"version = {LOCK_VERSION}\n"]
    for e in sorted(entries):
        lines.append("\n[[target]]\n")
        for name in FIELDS:
            lines.append(f"{name} = {_quote(getattr(e, name))}\n")
    return "".join(lines)


def _toml():
    try:
        import tomllib                   # Python 3.11+
    except ModuleNotFoundError:          # 3.10: the same parser as a package (a dependency)
        import tomli as tomllib
    return tomllib


def _line_of(text: str, pattern: str, after: int = 0) -> int:
    """1-based number of the first line from `after` on that matches `pattern` (TOML parsers
    give values, not positions: errors about valid TOML find their line this way)."""
    for n, line in enumerate(text.splitlines()[after:], after + 1):
        if re.match(pattern, line):
            return n
    return 0


def parse(text: str, path: Path) -> list[LockEntry]:
    """Entries of a lock file: any valid TOML of the lock's shape reads (other spacing, quotes,
    order, inline tables); a malformed file is an error naming the line."""
    toml = _toml()
    try:
        data = toml.loads(text)
    except toml.TOMLDecodeError as exc:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        raise ManifestError(f"not valid TOML: {message}", hint=_REGENERATE,
                            location=Location(path, int(m.group(1)), int(m.group(2)))
                            if m else Location(path)) from None
    for key in data:
        if key not in ("version", "target"):
            raise ManifestError(f"unexpected key {key!r} outside the [[target]] groups",
                                location=Location(path, _line_of(text, rf"\s*{re.escape(key)}\s*[=.]")),
                                field=key, hint=_REGENERATE)
    version = data.get("version")
    if version != LOCK_VERSION or isinstance(version, bool):
        raise ManifestError(f"lock format version {str(version) if version is not None else None!r}; "
                            f"this opkg reads {LOCK_VERSION}",
                            location=Location(path, _line_of(text, r"\s*version\s*=")),
                            field="version", hint=_REGENERATE)
    targets = data.get("target", [])
    if not isinstance(targets, list):
        raise ManifestError("'target' must be an array of tables ([[target]] groups)",
                            location=Location(path, _line_of(text, r"\s*\[?\s*target")),
                            field="target", hint=_REGENERATE)
    entries: list[LockEntry] = []
    header = 0
    for i, group in enumerate(targets):
        # the group's [[target]] line, when it is written as one (an inline table has none)
        header = _line_of(text, r"\s*\[\[\s*target\s*\]\]", header)
        where = Location(path, header)
        if not isinstance(group, dict):
            raise ManifestError(f"target[{i}] is not a table", location=where, hint=_REGENERATE)
        for key, value in group.items():
            if key not in FIELDS:
                raise ManifestError(f"unknown key {key!r}", field=key, hint=_REGENERATE,
                                    location=Location(path, _line_of(
                                        text, rf"\s*{re.escape(key)}\s*=", header) or header))
            if not isinstance(value, str):
                raise ManifestError(f"{key} must be a string, got {value!r}", field=key,
                                    location=where, hint=_REGENERATE)
        missing = [f for f in FIELDS if f not in group]
        if missing:
            raise ManifestError(f"[[target]] lacks {', '.join(missing)}", location=where,
                                hint=_REGENERATE)
        entries.append(LockEntry(**{f: group[f] for f in FIELDS}))
    return sorted(entries)


_REGENERATE = "regenerate it with `opkg lock`"


def read(path: Path) -> list[LockEntry]:
    try:
        text = Path(path).read_text()
    except FileNotFoundError:
        raise ToolchainError(f"{path.name} not found at {path.parent}",
                             hint="create it with `opkg lock` and commit it") from None
    return parse(text, Path(path))


def merge(old, new) -> list[LockEntry]:
    """`new` replaces entries with the same (package, SoC); others in `old` stay."""
    by_key = {e.key: e for e in old}
    by_key.update({e.key: e for e in new})
    return sorted(by_key.values())


def differences(locked, current) -> list[str]:
    """One line per (package, SoC) whose current resolution differs from the lock."""
    table = {e.key: e for e in locked}
    out = []
    for e in sorted(current):
        name = f"{e.package} ({e.soc})"
        old = table.get(e.key)
        if old is None:
            out.append(f"{name}: not in {LOCK_FILE} (resolves to {e.toolchain})")
            continue
        if old.toolchain != e.toolchain or old.version != e.version:
            out.append(f"{name}: locked {old.toolchain} {old.version}, resolves to "
                       f"{e.toolchain} {e.version}")
        elif old.fingerprint != e.fingerprint:
            out.append(f"{name}: {e.toolchain} fingerprint changed (locked {old.fingerprint[:19]}"
                       f"…, installed {e.fingerprint[:19]}…): the compiler or version files "
                       "differ from the locked install")
    return out


def verify(lock_path: Path, current) -> None:
    """Raise ToolchainError (exit 3) naming every difference between the lock and `current`."""
    diffs = differences(read(lock_path), current)
    if diffs:
        raise ToolchainError(
            f"toolchain resolution differs from {lock_path.name}:\n  " + "\n  ".join(diffs),
            location=Location(lock_path),
            hint="install the locked toolchains, or run `opkg lock` and commit the new lock")


def digest(lock_path: Path) -> str | None:
    """The lock's digest for bundle provenance, or None when there is no lock."""
    try:
        return "sha256:" + hashlib.sha256(Path(lock_path).read_bytes()).hexdigest()
    except FileNotFoundError:
        return None
