"""The parsed-manifest cache: a validated `Package` reused while nothing it was made from changed.

Parsing a manifest with positions and validating it costs ~20 ms; a workspace of hundreds of
packages paid that on every build that the null-build fast path could not answer. One file,
`out/.opkg/manifests.json`, maps each manifest's path to the Package made from it and the
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
modules that make a Package, so any edit of those drops every entry. `out/` travels (a CI
artefact), so the file is JSON read through a closed codec: plain values, paths, tuples and the
dataclasses of a Package, each rebuilt with exactly its fields; nothing in it can execute. An
entry whose shape is wrong, whose Package is not the one of its manifest and label, or whose
signatures do not cover every file the Package names is dropped; a file that does not parse is
dropped whole with one warning. Never an error; the file is written atomically and only when an
entry changed, and only into an existing output directory (a build creates it; `opkg query` or
`opkg lock` in a fresh checkout do not). Manifests with errors are never cached: their errors are
reported every time.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from pathlib import Path

# The stat signature and racy rule of the fast path: one definition of "unchanged" for opkg.
from opkg.core.statsig import is_racy, stat_signature

FORMAT = 6     # 2: JSON through a closed codec; 3: Case.xfail; 4: Case.dtypes;
                # 5: Case.if_supported; 6: a library's host_include_dirs
FILE_NAME = "manifests.json"
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


class _Refused(Exception):
    """A value the codec does not write, or a document it does not read back."""


def _classes() -> dict[str, type]:
    from opkg.core.errors import Location
    from opkg.core.manifest import Case, Package, Tolerance, VerifySpec
    from opkg.core.model import AttrSpec, OpSpec, SimModes, TensorSpec, Variant

    return {c.__name__: c for c in (Location, Case, Package, Tolerance, VerifySpec, AttrSpec,
                                    OpSpec, SimModes, TensorSpec, Variant)}


def encode(value, classes):
    """`value` as JSON data; types outside the closed set refuse (the Package is not cached)."""
    if value is None or isinstance(value, (bool, str, int, float)):
        return value
    if isinstance(value, Path):
        return {"$path": str(value)}
    if isinstance(value, tuple):
        return {"$tuple": [encode(v, classes) for v in value]}
    if isinstance(value, list):
        return [encode(v, classes) for v in value]
    if isinstance(value, dict):
        return {"$dict": [[encode(k, classes), encode(v, classes)] for k, v in value.items()]}
    name = type(value).__name__
    if classes.get(name) is type(value):
        return {"$obj": name, "fields": {f.name: encode(getattr(value, f.name), classes)
                                         for f in dataclasses.fields(value)}}
    raise _Refused(f"cannot cache a {type(value).__name__}")


def decode(data, classes):
    """The inverse of encode; anything else refuses."""
    if data is None or isinstance(data, (bool, str, int, float)):
        return data
    if isinstance(data, list):
        return [decode(v, classes) for v in data]
    if not isinstance(data, dict) or len(data) not in (1, 2):
        raise _Refused("not a cached value")
    if set(data) == {"$path"} and isinstance(data["$path"], str):
        return Path(data["$path"])
    if set(data) == {"$tuple"} and isinstance(data["$tuple"], list):
        return tuple(decode(v, classes) for v in data["$tuple"])
    if set(data) == {"$dict"} and isinstance(data["$dict"], list):
        out = {}
        for pair in data["$dict"]:
            if not isinstance(pair, list) or len(pair) != 2:
                raise _Refused("not a key-value pair")
            key = decode(pair[0], classes)
            if isinstance(key, (dict, list)):
                raise _Refused("an unhashable key")
            out[key] = decode(pair[1], classes)
        return out
    if set(data) == {"$obj", "fields"} and isinstance(data["fields"], dict):
        cls = classes.get(data["$obj"]) if isinstance(data["$obj"], str) else None
        if cls is None or set(data["fields"]) != {f.name for f in dataclasses.fields(cls)}:
            raise _Refused(f"not a cached object: {str(data['$obj'])[:40]!r}")
        try:
            return cls(**{k: decode(v, classes) for k, v in data["fields"].items()})
        except (TypeError, ValueError) as exc:
            raise _Refused(str(exc)) from None
    raise _Refused("not a cached value")


_SIG_LEN = len(stat_signature(os.stat(__file__)))


def _is_sig(sig) -> bool:
    return isinstance(sig, list) and len(sig) == _SIG_LEN and all(type(v) is int for v in sig)


class ManifestCache:
    def __init__(self, output_dir: Path, context):
        self.path = Path(output_dir) / ".opkg" / FILE_NAME
        self.context = context
        self.key = _code_key()
        self.entries: dict[str, dict] = {}
        self.changed = False
        self.classes = _classes()
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return
        except (OSError, UnicodeDecodeError):
            text = ""
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            data = None
        if not (isinstance(data, dict) and isinstance(data.get("entries"), dict)
                and "key" in data):
            self._warn(f"{self.path} is not a manifest cache; ignored and rewritten")
            self.changed = True
            return
        if data["key"] == json.loads(json.dumps(self.key)):    # else another opkg's: dropped
            self.entries = data["entries"]

    @staticmethod
    def _warn(message: str) -> None:
        sys.stderr.write(f"warning: {message}\n")

    def get(self, manifest: Path, label: str):
        entry = self.entries.get(str(manifest))
        if entry is None:
            return None
        pkg = self._checked(entry, manifest, label)
        if pkg is None:
            del self.entries[str(manifest)]        # evicted; put() replaces it
            self.changed = True
            return None
        for path, sig in entry["files"].items():
            if _stat(path) != sig:
                return None
        return pkg

    def _checked(self, entry, manifest: Path, label: str):
        """The entry's Package if the entry is well formed and is this manifest's, else None.
        Its signatures must cover every file the Package names: a handed-over entry whose
        Package points elsewhere (another golden, say) cannot match this machine's files."""
        from opkg.core.manifest import Package

        if not (isinstance(entry, dict) and set(entry) == {"context", "files", "package"}
                and entry["context"] == [label, json.loads(json.dumps(self.context))]
                and isinstance(entry["files"], dict)
                and all(_is_sig(s) for s in entry["files"].values())):
            return None
        try:
            pkg = decode(entry["package"], self.classes)
        except (_Refused, RecursionError):
            return None
        try:
            if not (isinstance(pkg, Package) and pkg.manifest_path == manifest
                    and pkg.label == label and pkg.dir == manifest.parent
                    and {str(manifest), *dependencies(pkg)} <= set(entry["files"])):
                return None
        except Exception:   # a field of the wrong type where dependencies() looks
            return None
        return pkg

    def put(self, manifest: Path, label: str, pkg, started_ns: int) -> None:
        """Cache `pkg`, made by a parse that began at `started_ns` (time.time_ns())."""
        files = {p: _stat(p) for p in {str(manifest), *dependencies(pkg)}}
        if any(sig is None or is_racy(sig, started_ns) for sig in files.values()):
            return     # vanished, or written in the parse's tick: its signature proves nothing
        try:
            package = encode(pkg, self.classes)
        except _Refused:
            return
        self.entries[str(manifest)] = {"context": [label, self.context], "files": files,
                                       "package": package}
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
            atomic_write_bytes(self.path, json.dumps(
                {"key": self.key, "entries": self.entries}, separators=(",", ":")).encode())
        except OSError:
            pass                # a read-only output directory: the next run parses again
        self.changed = False
