"""Operator bundles: deterministic archives of one package built for one SoC and toolchain.

A bundle is a gzip'd tar whose first member is `opkg-bundle.json` (the metadata the registry
indexes), followed by the manifest, the binaries, one verification report per dtype variant
and `provenance.json`. Entries are sorted, owners are 0/0 and every mtime is fixed, and gzip
carries no timestamp, so two builds of the same inputs give byte-identical bundles.

The SCons glue calls `write_bundle`; the registry calls `read_metadata` and `safe_extract`.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import tarfile
import zlib
from pathlib import Path, PurePosixPath

from opkg.core.errors import BuildError, RegistryError
from opkg.util.fsutil import atomic_write_bytes

METADATA = "opkg-bundle.json"
FORMAT_VERSION = 1
# 2000-01-01T00:00:00Z: a fixed mtime, so archives do not depend on when they were built.
FIXED_MTIME = 946684800
# What reading a damaged archive raises: gzip.BadGzipFile is an OSError, a cut stream an
# EOFError, a broken deflate stream a zlib.error.
UNREADABLE = (tarfile.TarError, OSError, EOFError, zlib.error)
DAMAGED_HINT = ("a bundle built in this workspace: delete it and run `opkg build` to make it "
                "again; one copied from elsewhere: copy it again")


# Caps on what one bundle may unpack to, far above any real operator (a few MiB of libraries
# and reports) and far below what hurts: a 1 MiB gzip of zeros unpacks to 1 GiB. Checked on
# the decompressed stream as it is read, so a bomb is refused after at most the cap in CPU
# time and never fills memory or disk.
MAX_UNPACKED_BYTES = 256 << 20
MAX_ENTRIES = 10_000
MAX_METADATA_BYTES = 1 << 20
_CAP_HINT = (f"a bundle unpacks to at most {MAX_UNPACKED_BYTES >> 20} MiB in at most "
             f"{MAX_ENTRIES} entries; this archive is damaged or was not written by opkg")


class _CappedStream:
    """The decompressed bytes of a gzip'd bundle for tarfile, refusing to go past
    MAX_UNPACKED_BYTES (a read or a seek beyond it, e.g. past a member whose header claims
    terabytes, fails before any of it is decompressed)."""

    def __init__(self, path: Path):
        self.name = str(path)
        self._path = path
        self._gz = gzip.GzipFile(path, "rb")

    def _refuse(self):
        return RegistryError(f"{self._path}: refused: unpacks to more than "
                             f"{MAX_UNPACKED_BYTES >> 20} MiB", hint=_CAP_HINT)

    def read(self, n: int = -1) -> bytes:
        room = MAX_UNPACKED_BYTES - self._gz.tell()
        if n is None or n < 0 or n > room:
            n = room + 1
        try:
            data = self._gz.read(n)
        except (zlib.error, EOFError, gzip.BadGzipFile) as exc:
            raise self._damaged(exc) from None
        if self._gz.tell() > MAX_UNPACKED_BYTES:
            raise self._refuse()
        return data

    def seek(self, offset: int, whence: int = 0) -> int:
        target = {0: offset, 1: self._gz.tell() + offset}.get(whence)
        if target is None:
            raise OSError("bundles are read front to back")
        if target > MAX_UNPACKED_BYTES:
            raise self._refuse()
        try:
            return self._gz.seek(target)
        except (zlib.error, EOFError, gzip.BadGzipFile) as exc:
            raise self._damaged(exc) from None

    def _damaged(self, exc) -> RegistryError:
        # A truncated or bit-flipped stream is a damaged bundle, never a traceback.
        return _unreadable(self._path, exc)

    def tell(self) -> int:
        return self._gz.tell()

    def close(self) -> None:
        self._gz.close()


class _CappedTar(tarfile.TarFile):
    def next(self):
        member = super().next()
        if member is not None and len(self.members) > MAX_ENTRIES:
            raise RegistryError(f"{self.name}: refused: more than {MAX_ENTRIES} entries",
                                hint=_CAP_HINT)
        if member is not None and member.offset_data + member.size > MAX_UNPACKED_BYTES:
            raise self.fileobj._refuse()   # its header claims more than the cap: read none of it
        return member


def open_bundle(path: Path) -> tarfile.TarFile:
    """A bundle opened for reading, with the caps above enforced while it streams."""
    stream = _CappedStream(Path(path))
    try:
        tar = _CappedTar(fileobj=stream, mode="r")
    except BaseException:
        stream.close()
        raise
    tar._extfileobj = False        # closing the tar closes the stream
    return tar


def bundle_filename(name: str, version: str, soc: str, toolchain: str) -> str:
    return f"{name}-{version}-{soc}-{toolchain}.opkg.tgz"


def write_bundle(dest: Path, metadata: dict, files: dict[str, Path | bytes]) -> None:
    """Write `dest` atomically. `files` maps archive paths to a file on disk or to bytes."""
    meta = dict(metadata, format=FORMAT_VERSION)
    members: list[tuple[str, bytes, int]] = [
        (METADATA, (json.dumps(meta, indent=2, sort_keys=True) + "\n").encode(), 0o644)]
    for arcname in sorted(files):
        _check_arcname(arcname)
        src = files[arcname]
        if isinstance(src, bytes):
            members.append((arcname, src, 0o644))
        else:
            mode = 0o755 if os.access(src, os.X_OK) else 0o644
            members.append((arcname, Path(src).read_bytes(), mode))
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for arcname, data, mode in members:
            info = tarfile.TarInfo(arcname)
            info.size, info.mode, info.mtime = len(data), mode, FIXED_MTIME
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            tar.addfile(info, io.BytesIO(data))
    compressed = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=compressed, mtime=0) as gz:
        gz.write(raw.getvalue())
    atomic_write_bytes(dest, compressed.getvalue())


def read_metadata(path: Path) -> dict:
    try:
        with open_bundle(path) as tar:
            member = tar.next()
            if member is None or member.name != METADATA or not member.isfile():
                raise RegistryError(f"{path}: not an opkg bundle (first entry is not {METADATA})")
            if member.size > MAX_METADATA_BYTES:
                raise RegistryError(f"{path}: refused: {METADATA} is {member.size} bytes",
                                    hint=f"opkg writes a few KiB of metadata; {_CAP_HINT}")
            meta = json.loads(tar.extractfile(member).read())
    except (*UNREADABLE, ValueError) as exc:   # ValueError: JSON, UTF-8
        raise _unreadable(path, exc) from None
    if not isinstance(meta, dict):
        raise RegistryError(f"{path}: not an opkg bundle ({METADATA} is not a JSON object)")
    return meta


def verify_archive(path: Path) -> None:
    """Read the whole bundle: every tar header and every byte of the gzip stream, whose CRC-32
    and length trailer catch a flipped bit or a cut that a partial read would not (tarfile
    stops at the end-of-archive blocks). RegistryError naming the file."""
    scan_bundle(path, content=False)


def scan_bundle(path: Path, keep=lambda name: False, *,
                content: bool = True) -> tuple[dict[str, bytes], str | None]:
    """One pass over the whole bundle (the checks of verify_archive and check_members): returns
    the bytes of the files whose name `keep` selects, and the content_digest unless `content`
    is false. RegistryError naming the file."""
    import hashlib

    files: dict[str, bytes] = {}
    h = hashlib.sha256()
    try:
        # through the capped stream: a header claiming terabytes is refused, not decompressed
        with open_bundle(path) as tar:
            for m in tar:
                _check_member(path, m)   # never store what install would refuse to unpack
                if not m.isfile() or not (content or keep(m.name)):
                    continue
                data = tar.extractfile(m).read()
                if keep(m.name):
                    files[m.name] = data
                if content and m.name != "provenance.json":
                    h.update(m.name.encode() + b"\0" + hashlib.sha256(
                        _content_bytes(data) if m.name == METADATA else data).digest())
            while tar.fileobj.read(1 << 20):
                pass
    except (*UNREADABLE, ValueError) as exc:   # ValueError: the metadata's JSON
        raise _unreadable(path, exc) from None
    return files, "sha256:" + h.hexdigest() if content else None


def _unreadable(path: Path, exc: BaseException) -> RegistryError:
    """A damaged archive (cut, flipped bits) or a file that never was one, in plain words.
    The error's `reason` is the message without the file name."""
    text = str(exc)
    if "Not a gzipped file" in text:
        reason, hint = "not a gzip archive", ("opkg bundles are the .opkg.tgz files "
                                              "`opkg build` writes")
        error = RegistryError(f"{path}: unreadable bundle: {reason}", hint=hint)
    else:
        if isinstance(exc, EOFError):
            reason = "the archive is truncated"
        elif isinstance(exc, zlib.error) or "CRC" in text or "gzip" in text.lower():
            reason = f"its compressed data is corrupt ({text})"
        else:
            reason = text or type(exc).__name__
        error = RegistryError(f"{path}: damaged bundle: {reason}", hint=DAMAGED_HINT)
    error.reason = reason
    return error


# Provenance that says where and when sources were built, not what was built: two bundles
# that differ only here hold the same operator.
CIRCUMSTANTIAL = ("git_commit", "git_dirty", "lock_digest")


def content_digest(path: Path) -> str:
    """A digest of what a bundle holds, blind to circumstantial provenance: rebuilding the
    same sources after an unrelated commit gives the same content digest."""
    return scan_bundle(path)[1]


def _content_bytes(metadata: bytes) -> bytes:
    meta = json.loads(metadata)
    if not isinstance(meta, dict):
        return metadata          # not a bundle read_metadata accepts; hash it as it is
    meta["provenance"] = {k: v for k, v in (meta.get("provenance") or {}).items()
                          if k not in CIRCUMSTANTIAL}
    return json.dumps(meta, sort_keys=True).encode()


def _check_member(path: Path, m: tarfile.TarInfo) -> None:
    _check_arcname(m.name, error=RegistryError)
    if not (m.isfile() or m.isdir()):
        raise RegistryError(f"{path}: entry {m.name!r} is a link or device; bundles hold "
                            "only regular files")


def safe_extract(path: Path, dest: Path) -> list[str]:
    """Unpack a bundle into `dest`, refusing anything that could land outside it."""
    names = []
    with open_bundle(path) as tar:
        try:
            members = tar.getmembers()
        except UNREADABLE as exc:
            raise _unreadable(path, exc) from None
        for m in members:
            _check_member(path, m)   # every entry before any is written
        dest.mkdir(parents=True, exist_ok=True)
        for m in members:
            target = dest / m.name
            if m.isdir():
                target.mkdir(parents=True, exist_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(target, tar.extractfile(m).read(), mode=m.mode & 0o755)
            names.append(m.name)
    return names


def _check_arcname(name: str, error=BuildError) -> None:
    p = PurePosixPath(name)
    if p.is_absolute() or ".." in p.parts or not p.parts or "\\" in name:
        raise error(f"unsafe path in bundle: {name!r}")



def scons_action(params: dict) -> str | None:
    """The 'bundle' build step: gather the target's files and verification summaries."""
    files = {arc: Path(p) for arc, p in params["files"].items()}
    variants = []
    total = failed = 0
    for name, dtypes in sorted(params["variants"].items()):
        entry = {"name": name, "dtypes": dtypes, "report": None, "verification": None}
        report_path = files.get(f"verification/{name}.json")
        if report_path is not None:
            try:
                report = json.loads(report_path.read_text())
            except (OSError, ValueError) as exc:
                return f"{report_path}: unreadable verification report ({exc})"
            passed = report["cases"] - report["failed"]
            total += report["cases"]
            failed += report["failed"]
            entry["report"] = f"verification/{name}.json"
            entry["verification"] = {
                "cases": report["cases"], "passed": passed, "error": report.get("error"),
                **{k: report.get(k) for k in ("max_abs_error", "max_rel_error",
                                              "mismatch_ratio")}}
        variants.append(entry)
    meta = dict(params["metadata"], variants=variants,
                verification={"passed": total > 0 and failed == 0, "cases": total,
                              "failed": failed})
    provenance = json.dumps(meta["provenance"], indent=2, sort_keys=True) + "\n"
    write_bundle(Path(params["output"]), meta,
                 {**files, "provenance.json": provenance.encode()})
    return None
