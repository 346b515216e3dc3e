"""What an operator's host code (tiling, InferShape) prints while it runs, kept per call.

The host functions are C++ in the package's host library, loaded into the verifier's own
process: their printf, std::cout and std::cerr go to file descriptors 1 and 2, which nobody
shows. `captured` points both at files for the length of one call and records the text and
whether the call succeeded, so a failing tiling function's own words reach the report.

The files live at a path the verifier's parent knows (`capture_paths`), so when the host code
crashes the process, the parent still reads what it printed before (runner.scons_action).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys
from pathlib import Path

LIMIT = 64 * 1024       # characters kept per stream: the start says why, the rest is noise
STREAMS = ("stdout", "stderr")


def capture_paths(directory: Path) -> dict[str, Path]:
    return {name: Path(directory) / f".host-{name}" for name in STREAMS}


def read_text(path: Path) -> str:
    try:
        with open(path, "rb") as f:
            data = f.read(LIMIT + 1)
    except OSError:
        return ""
    text = data[:LIMIT].decode("utf-8", errors="replace")
    return text + ("\n[... cut at 64 KiB]" if len(data) > LIMIT else "")


@contextlib.contextmanager
def captured(record: dict | None, step: str, directory: Path | None = None):
    """Run the block with fds 1 and 2 in files; `record[step]` gets {"status": "ok" or
    "failed", "stdout", "stderr"} and, on failure, the error's "message" (the exception is
    re-raised). With `record` None the block runs as it is."""
    if record is None:
        yield
        return
    import tempfile

    libc = ctypes.CDLL(None)
    sys.stdout.flush()
    sys.stderr.flush()
    libc.fflush(None)
    paths = capture_paths(directory) if directory is not None else None
    files = {}
    for fd, name in ((1, "stdout"), (2, "stderr")):
        files[fd] = open(paths[name], "w+b") if paths else tempfile.TemporaryFile()
    saved = {fd: os.dup(fd) for fd in files}
    entry = {"status": "ok", "stdout": "", "stderr": ""}
    record[step] = entry
    try:
        for fd, f in files.items():
            os.dup2(f.fileno(), fd)
        yield
    except BaseException as exc:
        entry["status"] = "failed"
        entry["message"] = getattr(exc, "message", None) or str(exc)
        raise
    finally:
        libc.fflush(None)     # C stdio (and std::cout, synced with it) buffers a file fully
        for fd in files:
            os.dup2(saved[fd], fd)
            os.close(saved[fd])
        for fd, name in ((1, "stdout"), (2, "stderr")):
            f = files[fd]
            f.seek(0)
            data = f.read(LIMIT + 1)
            f.close()
            entry[name] = data[:LIMIT].decode("utf-8", errors="replace") + (
                "\n[... cut at 64 KiB]" if len(data) > LIMIT else "")
        if paths:
            for p in paths.values():
                p.unlink(missing_ok=True)
