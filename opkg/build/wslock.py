"""The workspace lock: one build at a time per output directory.

Two builds in one workspace would race on SCons' database and on the same output files. A build
holds an exclusive `flock` on `<output_dir>/.opkg/build.lock` from before the null-build check
until it ends (SCons inherits the descriptor, so the lock lasts until SCons is gone too, even when
opkg is killed). A second build waits, saying so, or with `--no-wait` fails at once; `opkg clean`
refuses while the lock is held. The holder's pid is written into the file for those messages.

`opkg clean` renames the output directory away while holding the lock, so a build that was
waiting may end up holding the lock of a file that is no longer at the path: it checks the file
it locked is still the one at the path, and tries again if not.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path
from typing import Callable

from opkg.core.errors import OpkgError

LOCK_NAME = "build.lock"


class WorkspaceBusy(OpkgError):
    """Another opkg build holds the workspace (exit 4: try again later)."""

    exit_code = 4


def lock_path(output_dir) -> Path:
    return Path(output_dir) / ".opkg" / LOCK_NAME


def holder(path: Path) -> str:
    """'pid N' of the build holding the lock, as far as its file says."""
    try:
        pid = path.read_text().strip()
    except OSError:
        pid = ""
    return f"pid {pid}" if pid.isdigit() else "pid unknown"


@contextlib.contextmanager
def build_lock(output_dir, *, wait: bool = True,
               on_wait: Callable[[str], None] | None = None):
    """Hold the workspace's build lock; yields its file descriptor. Waits for another build
    (calling on_wait once with a message) or, with wait=False, raises WorkspaceBusy."""
    path = lock_path(output_dir)
    told = False
    while True:
        fd = _open(path)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                who = holder(path)
                if not wait:
                    raise WorkspaceBusy(
                        f"another opkg build is running in this workspace ({who})",
                        hint="wait for it to finish, or run without --no-wait to wait") from None
                if on_wait and not told:
                    on_wait(f"waiting for another opkg build in this workspace ({who})…")
                    told = True
                fcntl.flock(fd, fcntl.LOCK_EX)       # Ctrl-C while waiting interrupts this
            if _same_file(fd, path):
                break
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)                                 # `opkg clean` moved it away: again
    try:
        # fixed width, no truncation: truncating makes ext4 flush the file on close (~3 ms)
        os.pwrite(fd, f"{os.getpid():>10}\n".encode(), 0)
        yield fd
    finally:
        os.close(fd)


def _open(path: Path) -> int:
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except FileNotFoundError:                        # first build, or after `opkg clean`
        path.parent.mkdir(parents=True, exist_ok=True)
        return os.open(path, os.O_RDWR | os.O_CREAT, 0o644)


def _same_file(fd: int, path: Path) -> bool:
    try:
        st = path.stat()
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (st.st_dev, st.st_ino) == (mine.st_dev, mine.st_ino)


@contextlib.contextmanager
def exclusive_or_refuse(output_dir, action: str):
    """For `opkg clean`: hold the lock while `action` happens, or refuse if a build holds it.
    Does nothing when there is no lock file (no build ever ran here)."""
    path = lock_path(output_dir)
    try:
        fd = os.open(path, os.O_RDWR)
    except FileNotFoundError:
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise WorkspaceBusy(f"refusing to {action}: an opkg build is running in this "
                                f"workspace ({holder(path)})",
                                hint="wait for it to finish, or stop it (Ctrl-C), then run "
                                     "this again") from None
        yield
    finally:
        os.close(fd)
