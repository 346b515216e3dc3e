"""No process outlives opkg: SCons, compilers and verify runners stop with it, on a signal as
SCons starts, on Ctrl-C during a long verification, on a second Ctrl-C and on `kill -9`.

Signals are delivered at exact points (opkg.util.procs.checkpoint, or a golden that announces itself
on a FIFO), and leftovers are found by a marker in the environment of every process the opkg run
started, however deep, never by guessing process names.
"""

from __future__ import annotations

import os
import signal
import time

import pytest

from tests.conftest import Checkpoint, marked_processes, start_opkg

SOC = "Ascend910B1"


@pytest.fixture
def add_ws(workspace):
    workspace.copy_package("add_custom")
    return workspace


def golden_that_blocks(ws, fifo, *, ignore_sigterm=False):
    """The golden announces its pid on `fifo` (a Checkpoint's path), then runs for 10 minutes:
    a long verification. With ignore_sigterm, like a kernel stuck in native code."""
    golden = ws.root / "packages/add_custom/golden.py"
    golden.write_text(
        "import os, signal, time\n" + golden.read_text().replace(
            "def add_custom(",
            "def add_custom(*args, **kwargs):\n"
            + ("    signal.signal(signal.SIGTERM, signal.SIG_IGN)\n" if ignore_sigterm else "")
            + f"    with open({str(fifo)!r}, 'w') as fh:\n"
            "        fh.write(f'{os.getpid()}\\n')\n"
            "    time.sleep(600)\n\n\ndef _unused(", 1))


def finish(proc, timeout):
    try:
        return proc.communicate(timeout=timeout)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def assert_interrupted(proc, out, err, marker):
    assert proc.returncode == 130, out + err
    assert "interrupted" in err and "Traceback" not in err, err
    assert marked_processes(marker) == []


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_as_scons_starts_stops_scons(add_ws, tmp_path, marker, sig):
    spawned = Checkpoint(tmp_path, "spawned")     # SCons exists, opkg has not yet returned to it
    proc = start_opkg("build", "//...", "--soc", SOC, cwd=add_ws.root, marker=marker,
                      checkpoint=spawned)
    spawned.reached(proc)
    proc.send_signal(sig)
    spawned.release(proc)
    out, err = finish(proc, timeout=120)
    assert_interrupted(proc, out, err, marker)


def test_ctrl_c_during_a_long_verification_stops_the_runners_at_once(add_ws, tmp_path, marker,
                                                                     add_custom_cache):
    started = Checkpoint(tmp_path, "golden")
    golden_that_blocks(add_ws, started.path)
    proc = start_opkg("test", "//...", "--soc", SOC, cwd=add_ws.root, marker=marker)
    started.reached(proc)
    proc.send_signal(signal.SIGINT)
    # within seconds: not after verify.timeout, nor after waiting for SCons to give up
    out, err = finish(proc, timeout=20)
    assert_interrupted(proc, out, err, marker)
    # a stopped verification is no verdict: no report is recorded for it
    assert list((add_ws.root / "out").rglob("verification.json")) == []
    assert list((add_ws.root / "out").rglob("*.tmp-*")) == []


def test_a_second_ctrl_c_while_stopping_kills_everything(add_ws, tmp_path, marker,
                                                         add_custom_cache):
    started = Checkpoint(tmp_path, "golden")
    golden_that_blocks(add_ws, started.path, ignore_sigterm=True)
    stopping = Checkpoint(tmp_path, "stopping")   # opkg asked the build to stop (SIGTERM)
    proc = start_opkg("test", "//...", "--soc", SOC, cwd=add_ws.root, marker=marker,
                      checkpoint=stopping)
    started.reached(proc)
    proc.send_signal(signal.SIGINT)
    stopping.reached(proc, timeout=20)
    proc.send_signal(signal.SIGINT)               # the runner ignores SIGTERM: press again
    stopping.release(proc)
    out, err = finish(proc, timeout=20)
    assert_interrupted(proc, out, err, marker)
    assert err.count("interrupted") == 1, err


def wait_until_gone(marker, timeout=30.0) -> list[str]:
    """After opkg died by SIGKILL its children stop on their own: wait for that (bounded)."""
    deadline = time.monotonic() + timeout
    while (left := marked_processes(marker)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def test_kill_9_of_opkg_during_verification_stops_scons_and_the_runners(add_ws, tmp_path,
                                                                         marker, add_custom_cache):
    started = Checkpoint(tmp_path, "golden")
    golden_that_blocks(add_ws, started.path)
    proc = start_opkg("build", "//...", "--soc", SOC, cwd=add_ws.root, marker=marker)
    started.reached(proc)
    proc.kill()
    proc.communicate()
    assert wait_until_gone(marker) == []
    assert not (add_ws.root / "out/bundles").exists()


def test_kill_9_of_opkg_while_compiling_stops_scons_and_the_compilers(add_ws, tmp_path, marker):
    compiling = Checkpoint(tmp_path, "exec")      # SCons has started a compiler
    proc = start_opkg("build", "//...", "--soc", SOC, cwd=add_ws.root, marker=marker,
                      checkpoint=compiling)
    scons = compiling.reached(proc)
    assert scons != proc.pid
    proc.kill()
    proc.communicate()
    assert wait_until_gone(marker) == []
    assert not (add_ws.root / "out/bundles").exists()


def test_verifiers_die_with_scons_even_when_opkg_is_killed_too(add_ws, tmp_path, marker,
                                                               add_custom_cache):
    """SCons and opkg both killed by SIGKILL: nothing is left to stop the verify runner but its
    parent-death signal."""
    started = Checkpoint(tmp_path, "golden")
    golden_that_blocks(add_ws, started.path)
    proc = start_opkg("test", "//...", "--soc", SOC, cwd=add_ws.root, marker=marker)
    runner = started.reached(proc)
    stat = open(f"/proc/{runner}/stat", "rb").read()
    scons = int(stat[stat.rfind(b")") + 2:].split()[1])
    assert scons != proc.pid
    proc.send_signal(signal.SIGSTOP)              # opkg cannot stop anything any more
    os.kill(scons, signal.SIGKILL)                # and SCons' watchdog dies with SCons
    proc.kill()
    proc.communicate()
    assert wait_until_gone(marker) == []
