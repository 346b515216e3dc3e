"""opkg.lock: the resolved toolchain of every (package, SoC), and the source, commit and tree
digest of every external repository, written by `opkg lock` and enforced by
`opkg build --locked`.

The file is TOML: a version line, one `[[repository]]` group per external repository (sorted by
name), then one `[[target]]` group per (package, SoC), sorted by package then SoC, each field on
its own line. Adding or changing one package touches only its
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
REPO_FIELDS = ("name", "source", "commit", "tree")
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


@dataclass(frozen=True, order=True)
class RepositoryEntry:
    name: str
    source: str         # path+<dir> | git+<url>
    commit: str         # "" for a path repository outside git
    tree: str           # sha256:<hex> over the repository's files (opkg.core.external.fetch)

    @classmethod
    def of(cls, repo) -> "RepositoryEntry":
        """From an opkg.core.external.fetch.Repository."""
        return cls(repo.name, repo.source, repo.commit or "", repo.tree)


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


def render(entries, repositories=()) -> str:
    lines = [HEADER, f"version = {LOCK_VERSION}\n"]
    for r in sorted(repositories):
        lines.append("\n[[repository]]\n")
        for name in REPO_FIELDS:
            lines.append(f"{name} = {_quote(getattr(r, name))}\n")
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
    """Target entries of a lock file (parse_all: and its repositories)."""
    return parse_all(text, path)[0]


def parse_all(text: str, path: Path) -> tuple[list[LockEntry], list[RepositoryEntry]]:
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
        if key not in ("version", "target", "repository"):
            raise ManifestError(f"unexpected key {key!r} outside the [[target]] and "
                            "[[repository]] groups",
                                location=Location(path, _line_of(text, rf"\s*{re.escape(key)}\s*[=.]")),
                                field=key, hint=_REGENERATE)
    version = data.get("version")
    if version != LOCK_VERSION or isinstance(version, bool):
        raise ManifestError(f"lock format version {str(version) if version is not None else None!r}; "
                            f"this opkg reads {LOCK_VERSION}",
                            location=Location(path, _line_of(text, r"\s*version\s*=")),
                            field="version", hint=_REGENERATE)
    targets = _groups(data, "target", FIELDS, text, path)
    repos = _groups(data, "repository", REPO_FIELDS, text, path)
    return (sorted(LockEntry(**g) for g in targets),
            sorted(RepositoryEntry(**g) for g in repos))


def _groups(data: dict, table: str, fields, text: str, path: Path) -> list[dict]:
    """The `[[table]]` groups, each checked for exactly `fields`, all strings."""
    groups = data.get(table, [])
    if not isinstance(groups, list):
        raise ManifestError(f"'{table}' must be an array of tables ([[{table}]] groups)",
                            location=Location(path, _line_of(text, rf"\s*\[?\s*{table}")),
                            field=table, hint=_REGENERATE)
    out: list[dict] = []
    header = 0
    for i, group in enumerate(groups):
        # the group's [[table]] line, when it is written as one (an inline table has none)
        header = _line_of(text, rf"\s*\[\[\s*{table}\s*\]\]", header)
        where = Location(path, header)
        if not isinstance(group, dict):
            raise ManifestError(f"{table}[{i}] is not a table", location=where, hint=_REGENERATE)
        for key, value in group.items():
            if key not in fields:
                raise ManifestError(f"unknown key {key!r}", field=key, hint=_REGENERATE,
                                    location=Location(path, _line_of(
                                        text, rf"\s*{re.escape(key)}\s*=", header) or header))
            if not isinstance(value, str):
                raise ManifestError(f"{key} must be a string, got {value!r}", field=key,
                                    location=where, hint=_REGENERATE)
        missing = [f for f in fields if f not in group]
        if missing:
            raise ManifestError(f"[[{table}]] lacks {', '.join(missing)}", location=where,
                                hint=_REGENERATE)
        out.append({f: group[f] for f in fields})
    return out


_REGENERATE = "regenerate it with `opkg lock`"


def read(path: Path) -> list[LockEntry]:
    return read_all(path)[0]


def read_all(path: Path) -> tuple[list[LockEntry], list[RepositoryEntry]]:
    try:
        text = Path(path).read_text()
    except FileNotFoundError:
        raise ToolchainError(f"{path.name} not found at {path.parent}",
                             hint="create it with `opkg lock` and commit it") from None
    return parse_all(text, Path(path))


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


def repository_differences(locked, current, roots: dict | None = None) -> list[str]:
    """One line per repository in `current` that the lock does not record as it is now."""
    table = {e.name: e for e in locked}
    out = []
    for r in sorted(current):
        old = table.get(r.name)
        if old is None:
            out.append(f"repository {r.name}: not in {LOCK_FILE}")
        elif old.source != r.source:
            out.append(f"repository {r.name}: locked from {old.source}, now {r.source}")
        elif old.commit != r.commit:
            out.append(f"repository {r.name}: locked at commit {old.commit or '(none)'}, now "
                       f"{r.commit or '(none)'}")
        elif old.tree != r.tree:
            where = f" (`git -C {roots[r.name]} status` shows what changed)" \
                if roots and r.name in roots else ""
            out.append(f"repository {r.name}: its files differ from the locked tree "
                       f"(locked {old.tree[:19]}…, now {r.tree[:19]}…){where}")
    return out


def verify(lock_path: Path, current, repositories=None, roots: dict | None = None) -> None:
    """Raise ToolchainError (exit 3) naming every difference between the lock and `current`
    (and, when given, the `repositories` as they are now)."""
    locked, locked_repos = read_all(lock_path)
    diffs = differences(locked, current)
    repo_diffs = repository_differences(locked_repos, repositories or [], roots)
    if diffs or repo_diffs:
        what = " and ".join(w for w, d in (("toolchain resolution", diffs),
                                           ("external repositories", repo_diffs)) if d)
        raise ToolchainError(
            f"{what} differ{'s' if not (diffs and repo_diffs) else ''} from {lock_path.name}:"
            "\n  " + "\n  ".join(diffs + repo_diffs),
            location=Location(lock_path),
            hint=("install the locked toolchains, " if diffs else "")
            + ("check out the locked commits (and undo edits in the checkouts), " if repo_diffs
               else "") + "or run `opkg lock` and commit the new lock")


def digest(lock_path: Path) -> str | None:
    """The lock's digest for bundle provenance, or None when there is no lock."""
    try:
        return "sha256:" + hashlib.sha256(Path(lock_path).read_bytes()).hexdigest()
    except FileNotFoundError:
        return None
