"""The registry on disk: content-addressed blobs, one record per version, yank marks, an index.

Layout (a plain directory that can be served as static files):

    blobs/sha256/<hex>              bundles and full verification reports, named by content
    records/<name>/<version>.json   one immutable record per published version
    yanks/<name>/<version>.json     present while a version is yanked (reason, when, who)
    index.json                      names -> versions -> record digest, summary, yanked flag
    tmp/                            staging area; files here are never part of the registry
    .lock                           serialises index rewrites (flock; released if a writer dies)

Crash safety rests on three rules. Blobs are staged in tmp/, fsync'd and renamed into place, so
a blob is whole or absent. A record is staged the same way and then hard-linked to its final
name: link() fails if the name exists, which makes record creation exclusive and atomic, and
it is the commit point of a publish. The index is rewritten under the lock and replaced
atomically; it can lag behind a record (a writer killed between the two steps), so readers
merge records the index does not list yet, and the next writer adopts them into the index.

This module knows files and digests only. publish.py decides what a record holds, install.py
and check.py read through `Store`; nothing else touches the directory. `Store` is one of two
registry backends: oci.py's `OciStore` keeps the same versions in an OCI registry and answers
the same methods (backend.py lists them), so publish, install, yank, info and search do not
know which one they talk to.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

from packaging.version import InvalidVersion, Version

from opkg.core.errors import RegistryError, UsageError
from opkg.registry.records import (DIGEST_RE, INDEX_FORMAT, NAME_RE, VersionEntry, canonical_json,
                                   check_name, checkpoint, index_add, index_entry, index_problem,
                                   parse_record, refuse_malformed, sha256_bytes, sha256_file,
                                   version_key)

_WRITE_HINT = ("check the directory's owner and permissions, or publish to another registry "
               "with --registry DIR (or OPKG_REGISTRY)")


class Store:
    def __init__(self, root: Path):
        self.root = Path(root)
        self.blobs = self.root / "blobs" / "sha256"
        self.records = self.root / "records"
        self.yanks = self.root / "yanks"
        self.tmp = self.root / "tmp"
        self.index_path = self.root / "index.json"
        self.lock_path = self.root / ".lock"

    # -- opening ---------------------------------------------------------------------------

    def _refuse_a_file(self) -> None:
        if self.root.exists() and not self.root.is_dir():
            raise UsageError(f"registry path {self.root} is a file, not a directory",
                             hint="point --registry (or OPKG_REGISTRY) at a directory")

    def exists(self) -> bool:
        return self.root.exists()

    def ensure_readable(self) -> None:
        self._refuse_a_file()
        if not self.root.exists():
            raise RegistryError(f"no registry at {self.root}",
                                hint="publish a package first (opkg publish), or pass "
                                     "--registry DIR / set OPKG_REGISTRY")

    def ensure_writable(self) -> None:
        self._refuse_a_file()
        with self.writing(self.root):
            for d in (self.blobs, self.records, self.yanks, self.tmp):
                d.mkdir(parents=True, exist_ok=True)
            # Fail before any work if we cannot create files here (read-only, no permission).
            probe = self.tmp / f".probe-{os.getpid()}"
            probe.write_bytes(b"")
            probe.unlink()

    @contextlib.contextmanager
    def writing(self, what: Path):
        """Turn OS write failures into one clear registry error."""
        try:
            yield
        except OSError as exc:
            if isinstance(exc, (FileExistsError,)):
                raise
            reason = exc.strerror or str(exc)
            if exc.errno in (errno.EACCES, errno.EPERM):
                reason = "permission denied"
            elif exc.errno == errno.EROFS:
                reason = "read-only file system"
            elif exc.errno == errno.ENOSPC:
                reason = "no space left on device"
            where = exc.filename or what
            raise RegistryError(f"cannot write to registry {self.root}: {reason} ({where})",
                                hint=_WRITE_HINT) from None

    @contextlib.contextmanager
    def lock(self):
        with self.writing(self.lock_path):
            fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    # -- staging ---------------------------------------------------------------------------

    def _stage(self, data: bytes | None = None, src: Path | None = None) -> tuple[Path, str, int]:
        """Write `data` (or a copy of `src`) into tmp/, fsync'd. Returns (path, digest, size)."""
        with self.writing(self.tmp):
            self.tmp.mkdir(parents=True, exist_ok=True)
            fd, name = tempfile.mkstemp(prefix=f"stage-{os.getpid()}-", dir=self.tmp)
            path = Path(name)
            os.fchmod(fd, 0o644)  # mkstemp's 0600 would hide the index from other readers
            h, size = hashlib.sha256(), 0
            try:
                with os.fdopen(fd, "wb") as out:
                    if data is not None:
                        out.write(data)
                        h.update(data)
                        size = len(data)
                    else:
                        with open(src, "rb") as fh:
                            for chunk in iter(lambda: fh.read(1 << 20), b""):
                                out.write(chunk)
                                h.update(chunk)
                                size += len(chunk)
                    out.flush()
                    os.fsync(out.fileno())
            except BaseException:
                path.unlink(missing_ok=True)
                raise
        return path, "sha256:" + h.hexdigest(), size

    def _fsync_dir(self, d: Path) -> None:
        try:
            fd = os.open(d, os.O_RDONLY)
        except OSError:
            return
        try:
            os.fsync(fd)
        except OSError:
            pass
        finally:
            os.close(fd)

    # -- blobs -----------------------------------------------------------------------------

    def blob_path(self, digest: str) -> Path:
        if not DIGEST_RE.match(digest or ""):
            raise RegistryError(f"malformed digest {digest!r}")
        return self.blobs / digest.split(":", 1)[1]

    def blob_location(self, name: str, digest: str) -> str:
        return str(self.blob_path(digest))

    def put_blob(self, *, data: bytes | None = None, src: Path | None = None,
                 name: str | None = None) -> tuple[str, int]:
        staged, digest, size = self._stage(data=data, src=src)
        checkpoint("blob-staged")
        final = self.blob_path(digest)
        with self.writing(final):
            try:
                final.parent.mkdir(parents=True, exist_ok=True)
                os.chmod(staged, 0o444)
                # Same name means same content; replacing an existing blob is harmless and
                # silently restores one that was damaged.
                os.replace(staged, final)
            finally:
                staged.unlink(missing_ok=True)
            self._fsync_dir(final.parent)
        return digest, size

    def fetch_blob(self, name: str, digest: str, dest: Path) -> None:
        """Copy a blob as stored (the caller hashes the copy: what it checks is what it uses)."""
        blob = self.blob_path(digest)
        if not blob.is_file():
            raise RegistryError(f"{name}: blob {digest} is missing from {self.root}",
                                hint="the registry is damaged; run `opkg registry check`")
        shutil.copyfile(blob, dest)

    def verify_blob(self, digest: str, size: int | None = None, *,
                    name: str | None = None) -> str | None:
        """None when the blob is present and intact, else what is wrong with it."""
        path = self.blob_path(digest)
        if not path.is_file():
            return "missing"
        actual = sha256_file(path)
        if actual != digest:
            return f"corrupt (content hashes to {actual})"
        if size is not None and path.stat().st_size != size:
            return f"size {path.stat().st_size}, record says {size}"
        return None

    # -- records ---------------------------------------------------------------------------

    def record_path(self, name: str, version: str) -> Path:
        return self.records / check_name(name) / f"{version_key(version)}.json"

    def record_location(self, name: str, version: str) -> str:
        return str(self.record_path(name, version))

    def preflight(self) -> None:
        """Before a publish writes anything: a damaged index stops it."""
        if self.root.is_dir():
            self.load_index()

    def planned_writes(self, name: str, key: str, group) -> list[str]:
        """What publishing `group` (publish.Bundle list) as a new version would write."""
        writes = [str(self.blob_path(b.digest)) for b in group]
        writes += [f"{self.blobs}/<sha256 of {b.meta['soc']}/{b.meta['toolchain']['id']} "
                   f"{v} report>" for b in group for v in sorted(b.reports)]
        return writes + [str(self.record_path(name, key)), str(self.index_path)]

    def finish_publish(self, name: str, key: str, record: dict | None = None,
                       digest: str | None = None) -> None:
        """After a version's commit point: list it in the index. Without `record`, a version
        found committed (an earlier publish stopped after its commit point, or a concurrent
        publisher won) is adopted if the index lacks it."""
        if record is not None:
            self.update_index(lambda index: index_add(index, record, digest))
        elif key not in self.load_index()["packages"].get(name, {}).get("versions", {}):
            self.update_index()

    def commit_record(self, name: str, version: str, record: dict) -> tuple[bool, str]:
        """Create the record unless it exists. Returns (created, digest of the record file)."""
        refuse_malformed(record, name, version)
        data = canonical_json(record)
        final = self.record_path(name, version)
        staged, digest, _ = self._stage(data=data)
        checkpoint("record-staged")
        with self.writing(final):
            try:
                final.parent.mkdir(parents=True, exist_ok=True)
                os.chmod(staged, 0o444)
                try:
                    os.link(staged, final)
                except FileExistsError:
                    return False, digest
                except OSError as exc:
                    if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
                        raise
                    # A file system without hard links: rename only if nothing is there yet.
                    # Not exclusive against a simultaneous writer; said in docs/registry.md.
                    if final.exists():
                        return False, digest
                    os.replace(staged, final)
            finally:
                staged.unlink(missing_ok=True)
            self._fsync_dir(final.parent)
        checkpoint("record-committed")
        return True, digest

    def existing_key(self, name: str, version: str) -> str | None:
        """The key of a record for a version equal to `version` under PEP 440 ('1.0' equals
        '1.0.0'), if one exists. Spellings differ only by trailing zeros, so this is cheap."""
        key = version_key(version)
        if (self.records / name / f"{key}.json").is_file():
            return key
        wanted = Version(key)
        pkg = self.records / check_name(name)
        if pkg.is_dir():
            for f in pkg.glob("*.json"):
                try:
                    if Version(f.name[:-len(".json")]) == wanted:
                        return f.name[:-len(".json")]
                except InvalidVersion:
                    continue
        return None

    def read_record_bytes(self, name: str, version: str) -> bytes | None:
        path = self.record_path(name, version)
        try:
            return path.read_bytes()
        except FileNotFoundError:
            return None

    def read_record(self, name: str, version: str, expected_digest: str | None = None) -> dict:
        path = self.record_path(name, version)
        data = self.read_record_bytes(name, version)
        if data is None:
            raise RegistryError(f"{name} {version}: its record {path} is missing",
                                hint="the registry is damaged; run `opkg registry check`")
        if expected_digest and sha256_bytes(data) != expected_digest:
            raise RegistryError(
                f"{name} {version}: record {path} does not match the digest in the index "
                f"(index: {expected_digest}, file: {sha256_bytes(data)}); it was modified "
                "after publishing", hint="do not use this version; run `opkg registry check`")
        return parse_record(data, path, name, version)

    def record_files(self) -> list[tuple[str, str, Path]]:
        """(name, version key, path) of every record on disk."""
        out = []
        if not self.records.is_dir():
            return out
        for pkg in sorted(self.records.iterdir()):
            if not pkg.is_dir() or not NAME_RE.match(pkg.name):
                continue
            for f in sorted(pkg.glob("*.json")):
                out.append((pkg.name, f.name[:-len(".json")], f))
        return out

    # -- yanks -----------------------------------------------------------------------------

    def yank_path(self, name: str, version: str) -> Path:
        return self.yanks / check_name(name) / f"{version_key(version)}.json"

    def read_yank(self, name: str, version: str) -> dict | None:
        path = self.yank_path(name, version)
        try:
            data = json.loads(path.read_bytes())
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            raise RegistryError(f"{path}: malformed yank mark: {exc}",
                                hint="remove it with `opkg unyank` or fix the JSON") from None
        if not isinstance(data, dict):
            raise RegistryError(f"{path}: malformed yank mark: expected an object")
        return data

    def set_yank(self, name: str, version: str, mark: dict | None) -> None:
        """Write (None: remove) the yank mark, then copy the flag into the index."""
        self.write_yank(name, version, mark)
        self.update_index()

    def write_yank(self, name: str, version: str, mark: dict | None) -> None:
        path = self.yank_path(name, version)
        with self.writing(path):
            if mark is None:
                path.unlink(missing_ok=True)
            else:
                staged, _, _ = self._stage(data=canonical_json(mark))
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    os.replace(staged, path)
                finally:
                    staged.unlink(missing_ok=True)
            self._fsync_dir(path.parent)

    # -- index -----------------------------------------------------------------------------

    def load_index(self) -> dict:
        try:
            raw = self.index_path.read_bytes()
        except FileNotFoundError:
            return {"format": INDEX_FORMAT, "packages": {}}
        except IsADirectoryError:
            raise RegistryError(f"{self.index_path} is a directory", hint=_REPAIR_HINT) from None
        try:
            data = json.loads(raw)
        except ValueError as exc:
            raise RegistryError(f"{self.index_path}: malformed registry index: {exc}",
                                hint=_REPAIR_HINT) from None
        problem = index_problem(data)
        if problem:
            raise RegistryError(f"{self.index_path}: malformed registry index: {problem}",
                                hint=_REPAIR_HINT)
        return data

    def write_index(self, index: dict) -> None:
        staged, _, _ = self._stage(data=canonical_json(index))
        checkpoint("index-staged")
        with self.writing(self.index_path):
            try:
                os.replace(staged, self.index_path)
            finally:
                staged.unlink(missing_ok=True)
            self._fsync_dir(self.root)

    def update_index(self, mutate=None, *, rebuild: bool = False) -> dict:
        """Under the lock: load the index (or start empty when rebuilding), adopt records it
        does not list, refresh yank flags, apply `mutate(index)`, replace it atomically."""
        with self.lock():
            index = {"format": INDEX_FORMAT, "packages": {}} if rebuild else self.load_index()
            self.adopt(index)
            if mutate:
                mutate(index)
            self.refresh_yanks(index)
            self.write_index(index)
            return index

    def adopt(self, index: dict) -> list[tuple[str, str]]:
        """Add committed records missing from `index` (their digest is taken as found)."""
        adopted = []
        for name, key, path in self.record_files():
            if key in index["packages"].get(name, {}).get("versions", {}):
                continue
            try:
                data = path.read_bytes()
                record = parse_record(data, path, name, key)
            except (OSError, RegistryError):
                continue  # damaged: left for `opkg registry check` to report
            index_add(index, record, sha256_bytes(data))
            adopted.append((name, key))
        return adopted

    def refresh_yanks(self, index: dict) -> None:
        for name, pkg in index["packages"].items():
            for key, entry in pkg["versions"].items():
                try:
                    mark = self.read_yank(name, key)
                except RegistryError:
                    mark = None
                entry["yanked"] = bool(mark)
                entry["yank_reason"] = (mark or {}).get("reason")

    # -- the reader's view -----------------------------------------------------------------

    def check(self, *, repair: bool = False):
        from opkg.registry.check import check

        return check(self, repair=repair)

    def catalog(self, names=None) -> dict[str, dict[str, VersionEntry]]:
        """name -> version key -> entry: the index, plus records it lags behind, with yank
        marks read from yanks/ (the source of truth; the index copy is for static readers).
        `names`: the packages the caller needs (a hint; here every package is read)."""
        self.ensure_readable()
        index = self.load_index()
        out: dict[str, dict[str, VersionEntry]] = {}
        for name, pkg in index["packages"].items():
            for key, e in pkg["versions"].items():
                out.setdefault(name, {})[key] = VersionEntry(
                    name=name, version=e["version"], record_digest=e["record"],
                    summary=e.get("summary", ""), socs=list(e.get("socs", [])),
                    toolchains=list(e.get("toolchains", [])), published=e.get("published"),
                    record_present=self.record_path(name, key).is_file())
        for name, key, path in self.record_files():
            if key in out.get(name, {}):
                continue
            try:
                record = parse_record(path.read_bytes(), path, name, key)
            except (OSError, RegistryError):
                continue
            row = index_entry(record, None)
            out.setdefault(name, {})[key] = VersionEntry(
                name=name, version=record["version"], record_digest=None,
                summary=row["summary"], socs=row["socs"], toolchains=row["toolchains"],
                published=row["published"], indexed=False)
        for name, versions in out.items():
            for key, entry in versions.items():
                mark = self.read_yank(name, key)
                entry.yanked = bool(mark)
                entry.reason = (mark or {}).get("reason")
        return out


_REPAIR_HINT = ("run `opkg registry check --repair` to rebuild the index from the version "
                "records (records and blobs are not touched)")
