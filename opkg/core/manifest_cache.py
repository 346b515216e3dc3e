"""The parsed-manifest cache: a validated `Package` reused while nothing it was made from changed.

Parsing a manifest with positions and validating it costs ~20 ms; a workspace of hundreds of
packages paid that on every build that the null-build fast path could not answer. One file,
`out/.opkg/manifests.pickle`, maps each manifest's path to the Package made from it and the
signatures of everything the validation read:

- every file the Package names (the manifest, tiling sources and data, the kernel source whose
  entry was checked, the golden whose function was checked) and every include directory, by
  stat signature (mtime_ns, ctime_ns, size, inode, mode), as the fast path compares them;
- nothing whose timestamp falls in the tick the parse started, or later (git's racy-index rule,
  shared with opkg.build.fastpath): an edit in that tick, or during the parse, could leave the
  signature unchanged, so such a Package is not cached and the next run parses it again;
- the context the validation depended on: the package's label, the known SoC names, the
  workspace's default SoCs, and where each external repository's files are (its checkout).

The whole file is keyed by opkg's version, the Python version and the stat signatures of the
modules that make a Package, so any edit of those drops every entry. A missing, corrupt or
foreign file is ignored and rewritten, never an error; it is written atomically and only when an
entry changed, and only into an existing output directory (a build creates it; `opkg query` or
`opkg lock` in a fresh checkout do not). Manifests with errors are never cached: their errors are
reported every time.
"""

from __future__ import annotations

import os
import pickle
import sys
from pathlib import Path

# The stat signature and racy rule of the fast path: one definition of "unchanged" for opkg.
from opkg.core.statsig import is_racy, stat_signature

FORMAT = 2     # 2: Case.xfail
FILE_NAME = "manifests.pickle"
_CORE_DIR = Path(__file__).resolve().parent
# What turns a manifest into a Package: an edit of any of these changes every entry.
_CODE = ("manifest.py", "manifest_cache.py", "model.py", "yamlloc.py", "errors.py",
         "workspace.py", "settings.py", "labels.py", "external/spec.py",
         "external/libraries.py", "external/fetch.py")


def _stat(path: str) -> list[int] | None:
    try:
        return stat_signature(os.stat(path))
    except OSError:
        return None


def _code_key() -> list:
    from opkg import __version__

    return [FORMAT, __version__, sys.version,
            [[name, _stat(str(_CORE_DIR / name))] for name in _CODE]]


def dependencies(pkg) -> list[str]:
    """Every path the validation of `pkg`'s manifest read or checked."""
    paths = [str(p) for p in pkg.source_files()]
    paths += [str(d) for d in pkg.include_dirs]
    return paths


class ManifestCache:
    def __init__(self, output_dir: Path, context):
        self.path = Path(output_dir) / ".opkg" / FILE_NAME
        self.context = context
        self.key = _code_key()
        self.entries: dict[str, dict] = {}
        self.changed = False
        try:
            with open(self.path, "rb") as fh:
                data = pickle.load(fh)
            if isinstance(data, dict) and data.get("key") == self.key:
                self.entries = dict(data["entries"])
        except Exception:       # missing, truncated, corrupt, another format: start empty
            self.entries = {}

    def get(self, manifest: Path, label: str):
        entry = self.entries.get(str(manifest))
        if entry is None or entry["context"] != [label, self.context]:
            return None
        for path, sig in entry["files"].items():
            if _stat(path) != sig:
                return None
        return entry["package"]

    def put(self, manifest: Path, label: str, pkg, started_ns: int) -> None:
        """Cache `pkg`, made by a parse that began at `started_ns` (time.time_ns())."""
        files = {p: _stat(p) for p in dependencies(pkg)}
        if any(sig is None or is_racy(sig, started_ns) for sig in files.values()):
            return     # vanished, or written in the parse's tick: its signature proves nothing
        self.entries[str(manifest)] = {"context": [label, self.context], "files": files,
                                       "package": pkg}
        self.changed = True

    def keep_only(self, manifests) -> None:
        """Drop entries of manifests that no longer exist (a deleted or moved package)."""
        alive = {str(m) for m in manifests}
        for stale in [m for m in self.entries if m not in alive]:
            del self.entries[stale]
            self.changed = True

    def save(self) -> None:
        # commands that build nothing (query, lock) never create the output directory
        if not self.changed or not self.path.parent.parent.is_dir():
            return
        from opkg.util.fsutil import atomic_write_bytes

        try:
            atomic_write_bytes(self.path, pickle.dumps(
                {"key": self.key, "entries": self.entries}, protocol=pickle.HIGHEST_PROTOCOL))
        except OSError:
            pass                # a read-only output directory: the next run parses again
        self.changed = False
