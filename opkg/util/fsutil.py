"""Crash-safe file writes: every file opkg produces appears whole or not at all."""

from __future__ import annotations

import json
import os
from pathlib import Path


def atomic_write_bytes(dest: Path, data: bytes, mode: int = 0o644) -> None:
    """Write through a temporary file in the same directory, fsync, then rename over `dest`."""
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(f".{dest.name}.tmp-{os.getpid()}")
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, dest)
    except OSError as exc:
        # a write or fsync error (a full disk) carries no file name: give it the one written
        if exc.filename is None or exc.filename == str(tmp):
            raise OSError(exc.errno, exc.strerror, str(dest)) from None
        raise
    finally:
        if tmp.exists():
            tmp.unlink()


def atomic_write_text(dest: Path, text: str) -> None:
    atomic_write_bytes(dest, text.encode())


def atomic_write_json(dest: Path, data) -> None:
    atomic_write_text(dest, json.dumps(data, indent=2, sort_keys=True) + "\n")


# -- sealed files: state that must come from this machine -------------------------------------
# Some files opkg keeps in out/ are read by code that trusts them (SCons unpickles its
# signature database). out/ travels as a CI artefact, so such a file carries an HMAC under a
# key that never leaves the machine: one made here, readable by this user only.

def local_key() -> bytes | None:
    """This user's machine-local secret ($XDG_STATE_HOME/opkg/local.key), made on first use;
    None when it can be neither read nor made."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    path = Path(base) / "opkg" / "local.key"
    try:
        data = path.read_bytes()
        if len(data) == 32:
            return data
    except OSError:
        pass
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".local.key.tmp-{os.getpid()}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(os.urandom(32))
        try:
            os.link(tmp, path)          # the first writer wins; others read its key
        except FileExistsError:
            pass
        finally:
            tmp.unlink()
        data = path.read_bytes()
        return data if len(data) == 32 else None
    except OSError:
        return None


def _seal_path(path: Path) -> Path:
    return path.with_name(path.name + ".seal")


def _mac(path: Path, key: bytes) -> str | None:
    import hashlib
    import hmac

    try:
        with open(path, "rb") as fh:
            return hmac.new(key, fh.read(), hashlib.sha256).hexdigest()
    except OSError:
        return None


def seal(path: Path) -> None:
    """Record that `path`, as it is now, was written on this machine."""
    key = local_key()
    mac = _mac(path, key) if key else None
    if mac is None:
        _seal_path(path).unlink(missing_ok=True)
    else:
        atomic_write_text(_seal_path(path), mac + "\n")


def sealed(path: Path) -> bool:
    """Whether `path` is byte for byte what seal() recorded with this machine's key."""
    import hmac

    key = local_key()
    mac = _mac(path, key) if key else None
    try:
        recorded = _seal_path(path).read_text().strip()
    except (OSError, UnicodeDecodeError):
        return False
    return mac is not None and hmac.compare_digest(mac, recorded)
