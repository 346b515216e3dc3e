"""Child processes that never outlive opkg.

A build runs SCons as the leader of a new session. SCons runs compilers in its own process group
and verify runners in groups of their own (so a verification timeout kills one runner's tree),
all inside that session: stopping a build means emptying the session.

- Creation: the signals that stop opkg (SIGINT, SIGTERM, SIGHUP) are blocked from before SCons
  exists until the code that stops it is in place, so a signal that arrives as SCons starts is
  handled by that code instead of leaving SCons behind. The child restores the mask before exec.
- Every exit of `session()` (normal, error, signal, second signal) leaves no live process in the
  session: SIGTERM first (SCons stops scheduling, compilers and runners die, each step removes its
  temporary outputs), SIGKILL for whatever is left after GRACE seconds or at a second signal.
- opkg killed by SIGKILL: SCons holds the read end of a watchdog pipe whose only write end is
  opkg's; its end-of-file makes SCons kill its whole session (`watch_parent`).
- A verify runner asks for SIGKILL when the SCons thread that started it dies
  (`die_with_parent`, PR_SET_PDEATHSIG), in case SCons itself is killed from outside.

`checkpoint` is a test hook: it lets tests deliver a signal at an exact point (as SCons starts,
while a compiler runs) instead of guessing with sleeps.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
GRACE = 1.0                  # seconds between SIGTERM and SIGKILL: Ctrl-C stops within 2 s
WATCHDOG_ENV = "OPKG_WATCHDOG_FD"
PARENT_ENV = "OPKG_PARENT_PID"
CHECKPOINT_ENV = "OPKG_TEST_CHECKPOINT"
# a child in its own process group but in its parent's session (process_group is 3.11+)
OWN_GROUP = {"process_group": 0} if sys.version_info >= (3, 11) else {"preexec_fn": os.setpgrp}
_PR_SET_PDEATHSIG = 1


def members(sid: int) -> list[int]:
    """Live (not zombie) processes of session `sid`, from /proc."""
    live = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return live
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue                       # exited meanwhile
        # "pid (comm) state ppid pgrp session ..."; comm may hold spaces and parentheses
        fields = stat[stat.rfind(b")") + 2:].split()
        if int(fields[3]) == sid and fields[0] != b"Z":
            live.append(int(name))
    return live


def _signal(pids, sig) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)


@contextlib.contextmanager
def session(argv: list[str], *, grace: float = GRACE, pass_fds=(), **popen):
    """`with session(argv, stdout=PIPE, ...) as proc:` runs argv as the leader of a new session.

    The body reads the child's output; leaving the block normally waits for the child to exit.
    However the block is left, no process of the session is alive afterwards. proc.returncode
    holds the child's exit status."""
    read_end, write_end = os.pipe()
    env = dict(popen.pop("env", None) or os.environ)
    env[WATCHDOG_ENV] = str(read_end)
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
    try:
        proc = subprocess.Popen(argv, start_new_session=True, env=env,
                                pass_fds=(read_end, *pass_fds),
                                preexec_fn=lambda: signal.pthread_sigmask(signal.SIG_SETMASK,
                                                                          mask), **popen)
    except BaseException:
        os.close(write_end)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        raise
    finally:
        os.close(read_end)
    try:
        checkpoint("spawned")
        # a signal that arrived while SCons started is raised here, inside the try
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        yield proc
        # the child closed its output: wait for it to exit, without reaping it yet (a reaped
        # leader's id could be reused, and the session is found by that id)
        os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)
    except BaseException:
        signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
        _stop(proc, grace)
        # a signal that came after the stop began was answered by it; do not raise it again
        while signal.sigtimedwait(SIGNALS, 0) is not None:
            pass
        raise
    finally:
        signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
        try:
            _stop(proc, 0)                 # normally nothing is left; a straggler is killed
            proc.wait()
            if proc.stdout:
                proc.stdout.close()
        finally:
            os.close(write_end)
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def _stop(proc, grace: float) -> None:
    """Empty proc's session: SIGTERM, then SIGKILL after `grace` seconds or at once when one of
    SIGNALS arrives meanwhile (a second Ctrl-C). Called with SIGNALS blocked."""
    sid = proc.pid
    out = proc.stdout.fileno() if proc.stdout and not proc.stdout.closed else None
    if out is not None:
        os.set_blocking(out, False)        # drained below so SCons never blocks writing to us
    deadline = time.monotonic() + grace
    force = grace <= 0
    termed: set[int] = set()
    first = True
    while True:
        live = members(sid)
        if not live:
            return
        if force or time.monotonic() >= deadline:
            force = True
            _signal(live, signal.SIGKILL)
        else:
            _signal([p for p in live if p not in termed], signal.SIGTERM)
            termed.update(live)
            if first:
                checkpoint("stopping")
                first = False
        if out is not None:
            with contextlib.suppress(OSError):
                while os.read(out, 65536):
                    pass
        if signal.sigtimedwait(SIGNALS, 0.02) is not None:
            force = True


def watch_parent() -> None:
    """In SCons: kill this whole session when opkg dies, however it dies (its end of the
    watchdog pipe closes). Does nothing in a process opkg did not start."""
    fd = os.environ.pop(WATCHDOG_ENV, None)
    if fd is None:
        return

    def watch():
        with contextlib.suppress(OSError):
            while os.read(int(fd), 1):
                pass
        # opkg is gone: nobody reads the results, nobody else will stop what runs here
        me, sid = os.getpid(), os.getsid(0)
        for _ in range(500):
            live = [p for p in members(sid) if p != me]
            if not live:
                break
            _signal(live, signal.SIGKILL)
            time.sleep(0.01)
        os.kill(me, signal.SIGKILL)

    threading.Thread(target=watch, name="opkg-watchdog", daemon=True).start()


def child_env() -> dict:
    """The environment for a child that should die with the calling thread (die_with_parent)."""
    return {**os.environ, PARENT_ENV: str(os.getpid())}


def die_with_parent() -> None:
    """In a child started with child_env(): SIGKILL when the thread that started it dies.
    Linux only; elsewhere a no-op."""
    parent = os.environ.pop(PARENT_ENV, None)
    if parent is None or not sys.platform.startswith("linux"):
        return
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != int(parent):        # the parent died before the request took effect
        os.kill(os.getpid(), signal.SIGKILL)


_fired: set[str] = set()
_fired_lock = threading.Lock()


def checkpoint(name: str) -> None:
    """Test hook. With $OPKG_TEST_CHECKPOINT=<name>:<fifo>, the first time this process reaches
    `name` it writes its pid to the FIFO, then waits until the test opens the FIFO for writing
    and closes it. Costs one environment lookup otherwise."""
    spec = os.environ.get(CHECKPOINT_ENV)
    if not spec or spec.partition(":")[0] != name:
        return
    with _fired_lock:
        if name in _fired:
            return
        _fired.add(name)
    path = spec.partition(":")[2]
    with open(path, "w") as fifo:
        fifo.write(f"{os.getpid()}\n")
    with open(path) as fifo:
        fifo.read()
