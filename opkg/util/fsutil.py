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
    finally:
        if tmp.exists():
            tmp.unlink()


def atomic_write_text(dest: Path, text: str) -> None:
    atomic_write_bytes(dest, text.encode())


def atomic_write_json(dest: Path, data) -> None:
    atomic_write_text(dest, json.dumps(data, indent=2, sort_keys=True) + "\n")
