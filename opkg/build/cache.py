"""The shared build cache: size, entries, hit rate, least-recently-used pruning.

Layout (SCons CacheDir under the cache root, `$OPKG_CACHE_DIR` or the workspace's cache_dir):

    <cache>/scons/config            SCons' own settings (prefix length)
    <cache>/scons/<2 hex>/<sig>     one entry per output, named by its build signature: the
                                    output's bytes, then TRAILER (a marker and their SHA-256)
    <cache>/scons/<2 hex>/<sig>.diag  the diagnostics the step printed when it ran (compiler
                                    warnings of the package's own sources), next to the entry of
                                    the step's last output; only for steps that printed some.
                                    JSON, then the same TRAILER. Part of its entry: not counted
                                    on its own, removed with it.
    <cache>/stats.jsonl             one line per build that ran SCons: hits and misses
    <cache>/.lock                   builds hold it shared, `opkg cache prune` exclusive

SCons touches an entry's mtime each time it restores it, so mtime is "last used" (the later of
atime and mtime is used, in case another tool read the entry).

Pruning is safe while builds run: SCons checks that an entry exists and then copies it, and an
entry removed between the two would fail that build. Builds therefore hold the lock shared while
SCons runs and a prune takes it exclusively, waiting for running builds to finish (and new ones
wait for the prune, which takes seconds). Entries are renamed out of the fan-out directories
before they are unlinked, so a reader never sees a half-deleted entry.

Every entry carries the digest of the bytes it was given (`write_entry`), and a restore
(`restore_entry`) writes the output only when the bytes it read hash to that digest: a flipped
bit, a truncated copy or an entry from another tool is a miss, never a restored output. The
SCons side (`opkg.build.scons_glue`) evicts such an entry, warns once naming it, and runs the step.

Diagnostics are replayed on a restore, as ccache and Bazel do: a build answered from the cache
shows the warnings a fresh run of the same step shows. A damaged diagnostics file is a miss of
the step, like a damaged entry, so a warning is never silently lost.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

STATS_FILE = "stats.jsonl"
LOCK_FILE = ".lock"
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(i?b?)\s*$", re.IGNORECASE)
_UNITS = {"": 1, "k": 1024, "m": 1024 ** 2, "g": 1024 ** 3, "t": 1024 ** 4}
# Part of every step's signature (opkg.build.scons_glue): entries of an older format are never
# looked up. 3: steps keep their diagnostics (entries of 2 would restore without them).
ENTRY_FORMAT = "3"
# Appended to every entry: a marker, then the SHA-256 of the bytes before it.
ENTRY_MARKER = b"\n#opkg-cache-entry sha256\n"
TRAILER_SIZE = len(ENTRY_MARKER) + 32
_CHUNK = 1 << 20
DIAG_SUFFIX = ".diag"


def parse_size(text: str) -> int:
    """'500M', '2G', '1.5GiB', '1024' (bytes); units are powers of 1024."""
    m = _SIZE.match(text)
    if not m:
        raise ValueError(f"not a size: {text!r} (examples: 500M, 2G, 1048576)")
    return int(float(m.group(1)) * _UNITS[m.group(2).lower()])


def format_size(n: int) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n} B" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GiB"


@contextlib.contextmanager
def shared_lock(cache_dir):
    """Held by a build while SCons may read the cache (a no-op without a cache)."""
    if not cache_dir:
        yield
        return
    root = Path(cache_dir)
    root.mkdir(parents=True, exist_ok=True)
    fd = os.open(root / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)


@contextlib.contextmanager
def exclusive_lock(cache_dir, wait: float):
    """For pruning; TimeoutError if builds still hold the cache after `wait` seconds."""
    root = Path(cache_dir)
    root.mkdir(parents=True, exist_ok=True)
    fd = os.open(root / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise TimeoutError from None
                time.sleep(0.1)
        yield
    finally:
        os.close(fd)


def note_build(cache_dir, hits: int, misses: int, workspace: str,
               remote: dict | None = None) -> None:
    """Append one build's hits and misses, and the remote cache's (steps restored from it,
    not found in it, uploaded to it) when one was used (one short O_APPEND write:
    concurrent-safe)."""
    if not cache_dir:
        return
    line = json.dumps({"time": time.time(), "workspace": workspace, "hits": hits,
                       "misses": misses, **({"remote": remote} if remote else {})}) + "\n"
    try:
        fd = os.open(Path(cache_dir) / STATS_FILE, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
        try:
            os.write(fd, line.encode())
        finally:
            os.close(fd)
    except OSError:
        pass                     # statistics never fail a build


@dataclass(frozen=True)
class Entry:
    path: Path
    size: int
    last_used: float


def entries(cache_dir) -> list[Entry]:
    scons = Path(cache_dir) / "scons"
    out = []
    if not scons.is_dir():
        return out
    for sub in os.scandir(scons):
        if not sub.is_dir() or sub.name.startswith("."):
            continue
        for e in os.scandir(sub.path):
            if e.name.startswith(".") or e.name.endswith(DIAG_SUFFIX) \
                    or not e.is_file(follow_symlinks=False):
                continue
            try:
                st = e.stat(follow_symlinks=False)
            except OSError:
                continue     # removed meanwhile
            out.append(Entry(Path(e.path), st.st_size, max(st.st_atime, st.st_mtime)))
    return out


def recent_builds(cache_dir, limit: int = 10) -> list[dict]:
    try:
        lines = (Path(cache_dir) / STATS_FILE).read_text().splitlines()
    except OSError:
        return []
    builds = []
    for line in lines[-limit:]:
        try:
            builds.append(json.loads(line))
        except ValueError:
            continue
    return builds


def stats(cache_dir, last: int = 10) -> dict:
    items = entries(cache_dir)
    builds = recent_builds(cache_dir, last)
    hits = sum(b.get("hits", 0) for b in builds)
    misses = sum(b.get("misses", 0) for b in builds)
    return {
        "cache_dir": str(cache_dir),
        "entries": len(items),
        "size": sum(e.size for e in items),
        "oldest_use": min((e.last_used for e in items), default=None),
        "newest_use": max((e.last_used for e in items), default=None),
        "builds": builds,
        "hits": hits, "misses": misses,
        "hit_rate": hits / (hits + misses) if hits + misses else None,
        "remote": _remote_stats(builds),
    }


def _remote_stats(builds: list[dict]) -> dict | None:
    """The remote cache's hit rate over the builds that used it (None: none did)."""
    used = [b["remote"] for b in builds if b.get("remote")]
    if not used:
        return None
    total = {k: sum(r.get(k, 0) for r in used) for k in ("hits", "misses", "uploads")}
    looked = total["hits"] + total["misses"]
    return {"builds": len(used), **total,
            "hit_rate": total["hits"] / looked if looked else None}


def prune(cache_dir, max_size: int, *, wait: float = 60.0) -> dict:
    """Remove least recently used entries until the cache holds at most max_size bytes."""
    with exclusive_lock(cache_dir, wait):
        items = sorted(entries(cache_dir), key=lambda e: e.last_used)
        total = sum(e.size for e in items)
        removed = freed = 0
        for e in items:
            if total <= max_size:
                break
            doomed = e.path.with_name(f".{e.path.name}.prune-{os.getpid()}")
            try:
                os.rename(e.path, doomed)
                os.unlink(doomed)
            except FileNotFoundError:
                continue
            with contextlib.suppress(OSError):
                os.unlink(diagnostics_path(e.path))
            total -= e.size
            freed += e.size
            removed += 1
        return {"removed": removed, "freed": freed, "size": total,
                "entries": len(items) - removed}


# -- entries carry their digest ----------------------------------------------------------------

def write_entry(src, dest) -> str:
    """Copy the output `src` into the new entry file `dest`, followed by the trailer; returns
    the hex SHA-256 of the output's bytes (what a restore will demand)."""
    h = hashlib.sha256()
    with open(src, "rb") as fin, open(dest, "wb") as fout:
        for chunk in iter(lambda: fin.read(_CHUNK), b""):
            h.update(chunk)
            fout.write(chunk)
        fout.write(ENTRY_MARKER + h.digest())
    return h.hexdigest()


def restore_entry(entry, dest) -> tuple[str | None, str | None]:
    """Copy the output stored in `entry` to `dest` if its bytes match the entry's digest.
    Returns (hex digest, None) on success, or (None, what is wrong); on failure `dest` is not
    touched. The bytes are hashed as they are copied, so what is checked is what is written."""
    dest = str(dest)
    tmp = f"{dest}.restore-{os.getpid()}"      # one thread restores a given output
    try:
        with open(entry, "rb") as fin:
            size = os.fstat(fin.fileno()).st_size - TRAILER_SIZE
            if size < 0:
                return None, "too short to hold an opkg cache entry (truncated)"
            h = hashlib.sha256()
            with open(tmp, "wb") as fout:
                left = size
                while left:
                    chunk = fin.read(min(_CHUNK, left))
                    if not chunk:
                        return None, "shorter than when it was read (changed while restoring)"
                    h.update(chunk)
                    fout.write(chunk)
                    left -= len(chunk)
            trailer = fin.read(TRAILER_SIZE)
        if trailer[:len(ENTRY_MARKER)] != ENTRY_MARKER:
            return None, "no digest trailer (truncated, or not written by this opkg)"
        if trailer[len(ENTRY_MARKER):] != h.digest():
            return None, (f"its content hashes to sha256:{h.hexdigest()[:16]}…, not the "
                          f"sha256:{trailer[len(ENTRY_MARKER):].hex()[:16]}… it was stored with")
        os.replace(tmp, dest)
        return h.hexdigest(), None
    except OSError as exc:
        return None, f"unreadable: {exc.strerror or exc}"
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def evict(entry) -> None:
    """Remove a damaged entry and its diagnostics (renamed first, as prune does, so no reader
    sees half of it)."""
    for path in (Path(entry), Path(diagnostics_path(entry))):
        doomed = path.with_name(f".{path.name}.evict-{os.getpid()}")
        with contextlib.suppress(OSError):
            os.rename(path, doomed)
            os.unlink(doomed)


# -- a step's diagnostics, replayed on a restore -----------------------------------------------

def diagnostics_path(entry) -> str:
    return f"{entry}{DIAG_SUFFIX}"


def write_diagnostics(entry, diagnostics: list) -> None:
    """Store next to `entry` what its step printed (a list of JSON values), digest-sealed as
    entries are; written under a hidden name and renamed, so readers see all of it or none."""
    data = json.dumps(diagnostics, sort_keys=True).encode()
    dest = diagnostics_path(entry)
    tmp = os.path.join(os.path.dirname(dest), f".{os.path.basename(dest)}.{os.getpid()}-"
                                              f"{time.monotonic_ns()}")
    try:
        with open(tmp, "wb") as f:
            f.write(data + ENTRY_MARKER + hashlib.sha256(data).digest())
        os.replace(tmp, dest)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def read_diagnostics(entry) -> tuple[list, str | None]:
    """(diagnostics, None), ([], None) when the step printed none, or ([], what is wrong) when
    the file is damaged (the caller treats the step as a miss)."""
    try:
        with open(diagnostics_path(entry), "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        return [], None
    except OSError as exc:
        return [], f"diagnostics unreadable: {exc.strerror or exc}"
    data, trailer = raw[:-TRAILER_SIZE], raw[-TRAILER_SIZE:]
    if len(raw) < TRAILER_SIZE or trailer[:len(ENTRY_MARKER)] != ENTRY_MARKER \
            or trailer[len(ENTRY_MARKER):] != hashlib.sha256(data).digest():
        return [], "its diagnostics do not match their digest"
    try:
        diagnostics = json.loads(data)
    except ValueError:
        return [], "its diagnostics are not JSON"
    return (diagnostics, None) if isinstance(diagnostics, list) else \
        ([], "its diagnostics are not a list")
