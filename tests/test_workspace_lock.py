"""One build at a time per workspace: a second build waits (and says for whom), `--no-wait`
fails at once with exit status 4, `opkg clean` is refused while a build runs.

The first build is held at an exact point (opkg.util.procs.checkpoint "locked": it holds the lock)
while the second command runs; the workspace holds only a library package, so no build compiles.
"""

from __future__ import annotations

import os
import select
import signal
import threading
import time

import pytest

from opkg.build import wslock
from tests.conftest import Checkpoint, opkg, start_opkg


@pytest.fixture
def lib_ws(workspace):
    workspace.library("common")
    return workspace


@pytest.fixture
def holder(lib_ws, tmp_path, marker):
    """A build paused while it holds the workspace lock; released (and finished) at teardown."""
    locked = Checkpoint(tmp_path, "locked")
    proc = start_opkg("build", "//...", cwd=lib_ws.root, marker=marker, checkpoint=locked)
    locked.reached(proc)
    yield proc, locked
    locked.release(proc)
    proc.communicate(timeout=120)


def read_until(proc, text: str, timeout: float = 60) -> str:
    """proc's stderr up to the first line holding `text` (fails if it exits or times out)."""
    fd, seen = proc.stderr.fileno(), b""
    deadline = time.monotonic() + timeout
    while text.encode() not in seen:
        assert time.monotonic() < deadline, seen.decode()
        if select.select([fd], [], [], 0.1)[0]:
            chunk = os.read(fd, 4096)
            assert chunk, f"exited ({proc.wait()}) without saying {text!r}: {seen.decode()}"
            seen += chunk
    return seen.decode()


def test_a_second_build_waits_for_the_first_and_says_for_whom(lib_ws, holder, marker):
    first, locked = holder
    second = start_opkg("build", "//...", cwd=lib_ws.root, marker=marker)
    try:
        read_until(second, f"waiting for another opkg build in this workspace (pid {first.pid})")
        assert second.poll() is None                  # still waiting, not failed
        locked.release(first)
        assert first.wait(timeout=120) == 0
        out, err = second.communicate(timeout=120)
        assert second.returncode == 0, err
        assert "nothing to build" in out
    finally:
        if second.poll() is None:
            second.kill()


def test_ctrl_c_while_waiting_for_the_workspace_exits_130(lib_ws, holder, marker):
    first, _ = holder
    second = start_opkg("build", "//...", cwd=lib_ws.root, marker=marker)
    read_until(second, "waiting for another opkg build")
    second.send_signal(signal.SIGINT)
    out, err = second.communicate(timeout=60)
    assert second.returncode == 130 and "Traceback" not in err, err


def test_no_wait_fails_at_once_naming_the_running_build(lib_ws, holder):
    first, _ = holder
    for command in ("build", "test", "publish"):
        r = opkg(command, "//...", "--no-wait", cwd=lib_ws.root)
        assert r.returncode == 4, r.stdout + r.stderr
        assert (f"error: another opkg build is running in this workspace (pid {first.pid})"
                in r.stderr), r.stderr
        assert "hint:" in r.stderr and "Traceback" not in r.stderr


def test_clean_is_refused_while_a_build_runs(lib_ws, holder):
    first, locked = holder
    r = opkg("clean", cwd=lib_ws.root, check=4)
    assert (f"error: refusing to clean: an opkg build is running in this workspace "
            f"(pid {first.pid})") in r.stderr
    assert (lib_ws.root / "out/.opkg").is_dir()
    locked.release(first)
    assert first.wait(timeout=120) == 0
    opkg("clean", cwd=lib_ws.root, check=0)
    assert not (lib_ws.root / "out").exists()


def test_a_waiting_build_locks_the_new_directory_after_a_clean(tmp_path):
    """clean renames out/ away while it holds the lock; the build that waited on the old lock
    file must not believe it holds the workspace."""
    out = tmp_path / "out"
    path = wslock.lock_path(out)
    path.parent.mkdir(parents=True)
    import fcntl

    cleaner = os.open(path, os.O_RDWR | os.O_CREAT)
    fcntl.flock(cleaner, fcntl.LOCK_EX)
    held = {}
    waits = []

    def build():
        with wslock.build_lock(out, on_wait=waits.append) as fd:
            held["ino"] = os.fstat(fd).st_ino
            held["path_ino"] = path.stat().st_ino

    thread = threading.Thread(target=build)
    thread.start()
    deadline = time.monotonic() + 30
    while not waits and time.monotonic() < deadline:
        time.sleep(0.01)
    assert waits and "waiting for another opkg build in this workspace" in waits[0]
    os.rename(out, tmp_path / ".out.deleting")
    os.close(cleaner)
    thread.join(timeout=30)
    assert held and held["ino"] == held["path_ino"]
