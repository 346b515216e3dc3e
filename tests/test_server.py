"""The resident build server (`opkg build --server`): real server processes started by the
thin client, stopped after each test.

Whether a build ran in full is visible on disk, as in tests/test_fastpath.py: every full build
rewrites out/.opkg/plan.json (a new inode); the fast path, and the server's memory of it, never
touch it. The server writes its pid into out/.opkg/server/lock and logs each request.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.conftest import compiles

SOC = "Ascend910B1"


def _ident(path: Path):
    st = path.stat()
    return st.st_ino, st.st_mtime_ns


class Ws:
    def __init__(self, root: Path):
        self.root = root
        self.plan = root / "out/.opkg/plan.json"
        self.sdir = root / "out/.opkg/server"

    def opkg(self, *args, env=None, check=0, timeout=900):
        e = dict(os.environ, **(env or {}))
        r = subprocess.run([sys.executable, "-m", "opkg", *args], cwd=self.root, env=e,
                           capture_output=True, text=True, timeout=timeout)
        assert r.returncode == check, r.stdout + r.stderr
        return r

    def build(self, *args, env=None):
        r = self.opkg("build", "--server", "//...", "--soc", SOC, "--json", *args, env=env)
        return json.loads(r.stdout), r.stderr

    def full(self, *args, env=None) -> bool:
        """Build through the server; True when it planned and ran SCons (not answered from
        the fast path or from memory)."""
        before = _ident(self.plan) if self.plan.exists() else None
        data, self.stderr = self.build(*args, env=env)
        assert data["ok"], data
        self.last = data
        return _ident(self.plan) != before

    def pid(self) -> int | None:
        try:
            return int((self.sdir / "lock").read_text().split()[0])
        except (OSError, IndexError, ValueError):
            return None

    def log(self) -> str:
        return (self.sdir / "log").read_text() if (self.sdir / "log").exists() else ""


def alive(pid) -> bool:
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    # a zombie is gone for our purposes (the server is not our child)
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except OSError:
        return False


def wait_gone(pid, timeout=30.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def stop_servers():
    started: list[Ws] = []
    yield started.append
    for w in started:
        pid = w.pid()
        subprocess.run([sys.executable, "-m", "opkg", "shutdown"], cwd=w.root,
                       capture_output=True, timeout=60)
        if pid and not wait_gone(pid, 10):
            os.kill(pid, signal.SIGKILL)


@pytest.fixture
def empty(workspace, stop_servers):
    w = Ws(workspace.root)
    stop_servers(w)
    return w


@pytest.fixture
def built(workspace, cxx_log, warm_cache, stop_servers):
    workspace.copy_package("add_custom")
    w = Ws(workspace.root)
    stop_servers(w)
    assert w.full()                      # the first build goes through a new server
    compiles(cxx_log)
    cxx_log.unlink(missing_ok=True)
    return w


# -- the server's life: quick, no package ---------------------------------------------------

def test_shutdown_stops_the_server_and_says_when_none_runs(empty):
    r = empty.opkg("shutdown")
    assert r.stdout.strip() == "no build server is running for this workspace"
    r = empty.opkg("build", "--server", check=2)
    assert "'//...' matches no package" in r.stderr     # the CLI's own message, through it
    pid = empty.pid()
    assert pid and alive(pid)
    assert (empty.sdir / "sock").exists()
    r = empty.opkg("shutdown")
    assert r.stdout.strip() == f"stopped the build server (pid {pid})"
    assert wait_gone(pid)
    assert not (empty.sdir / "sock").exists()
    # OPKG_SERVER=1 starts it too, and OPKG_SERVER=0 wins over --server
    empty.opkg("build", env={"OPKG_SERVER": "1"}, check=2)
    assert alive(empty.pid()) and empty.pid() != pid
    empty.opkg("shutdown")
    assert wait_gone(empty.pid())
    empty.opkg("build", "--server", env={"OPKG_SERVER": "0"}, check=2)
    assert not (empty.sdir / "sock").exists()


def test_the_server_exits_when_idle(empty):
    empty.opkg("build", "--server", env={"OPKG_SERVER_IDLE": "1"}, check=2)
    pid = empty.pid()
    assert wait_gone(pid, 60)
    assert "idle for 1 s; exiting" in empty.log()
    assert not (empty.sdir / "sock").exists()


def test_an_edited_workspace_file_restarts_the_server(empty):
    empty.opkg("build", "--server", check=2)
    first = empty.pid()
    with open(empty.root / "opkg-workspace.yaml", "a") as fh:
        fh.write("# edited\n")
    r = empty.opkg("build", "--server", check=2)
    assert "restarting the build server:" in r.stderr
    assert "opkg-workspace.yaml changed" in r.stderr
    assert wait_gone(first)
    assert empty.pid() != first and alive(empty.pid())


def test_a_client_of_another_python_restarts_the_server(empty):
    empty.opkg("build", "--server", check=2)
    first = empty.pid()
    # the same interpreter under another path is another Python to the server
    link = empty.root.parent / "python-other"
    link.symlink_to(sys.executable)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    r = subprocess.run([str(link), "-m", "opkg", "build", "--server"], cwd=empty.root,
                       capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 2, r.stderr
    assert "restarting the build server: the client runs another Python" in r.stderr
    assert wait_gone(first)


def test_without_a_watcher_the_server_checks_every_request(empty):
    r = empty.opkg("build", "--server", env={"OPKG_SERVER_WATCH": "stat"}, check=2)
    assert "matches no package" in r.stderr
    assert "watching: no (stat check on every request)" in empty.log()
    assert alive(empty.pid())


def test_an_output_dir_the_client_cannot_read_runs_without_the_server(empty):
    (empty.root / "opkg-workspace.yaml").write_text("{output_dir: build-out}\n")
    r = empty.opkg("build", "--server", check=2)
    assert "build server not used: opkg-workspace.yaml sets output_dir in a form the client " \
           "does not read" in r.stderr
    assert "matches no package" in r.stderr
    assert not (empty.root / "build-out/.opkg/server").exists()


def test_a_plain_output_dir_is_where_the_socket_lives(empty):
    (empty.root / "opkg-workspace.yaml").write_text("output_dir: 'build-out'  # here\n")
    empty.sdir = empty.root / "build-out/.opkg/server"
    empty.opkg("build", "--server", check=2)
    assert (empty.sdir / "sock").exists()


def test_the_thin_client_imports_no_cli():
    code = ("import sys, opkg.build.client; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('click', 'yaml', 'numpy', 'jinja2', 'SCons') or m.startswith('opkg.cli')))")
    r = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True,
                       cwd=Path(__file__).parent.parent)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


# -- nothing stale: a real package ----------------------------------------------------------

@pytest.mark.slow
def test_edits_reach_the_next_build_through_the_server(built, cxx_log):
    assert not built.full()              # null build: the fast path, in the server
    assert not built.full()              # again: from memory
    assert "exit 0" in built.log()
    # how a build is run is not what it depends on: OPKG_SERVER=1 (or =0) proves the same
    assert not built.full(env={"OPKG_SERVER": "1"})
    assert not built.full(env={"OPKG_SERVER": "0"})
    pkg = built.root / "packages/add_custom"
    kernel = next(pkg.glob("op_kernel/*.cpp"))
    kernel.write_text(kernel.read_text() + "\nstatic const int opkg_test_edit = 0;\n")
    assert built.full()
    assert any(kernel.name in c for c in compiles(cxx_log))
    assert not built.full()
    # the manifest and the tiling: each edit is seen by the very next build
    for path, comment in ((pkg / "opkg.yaml", "# edited"),
                          (next(pkg.glob("**/*tiling*.h")), "// edited")):
        with open(path, "a") as fh:
            fh.write(f"\n{comment}\n")
        assert built.full(), path
        assert not built.full()
    # an output deleted behind the server's back
    bundle = Path(built.last["targets"][0]["bundle"])
    bundle.unlink()
    assert built.full() and bundle.exists()
    # the environment is part of the request
    assert built.full(env={"OPKG_SIM_EXTRA_TEST_VAR": "1"})


@pytest.mark.slow
def test_a_server_killed_mid_request_falls_back_to_a_normal_build(built):
    kernel = next((built.root / "packages/add_custom").glob("op_kernel/*.cpp"))
    with open(kernel, "a") as fh:
        fh.write("\nstatic const int opkg_test_edit = 1;\n")
    pid = built.pid()
    log_size = len(built.log())
    proc = subprocess.Popen([sys.executable, "-m", "opkg", "build", "--server", "//...",
                             "--soc", SOC, "--json"], cwd=built.root, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 300
    while "request:" not in built.log()[log_size:]:
        assert time.monotonic() < deadline and proc.poll() is None, proc.communicate()
        time.sleep(0.02)
    os.kill(pid, signal.SIGKILL)
    out, err = proc.communicate(timeout=900)
    assert proc.returncode == 0, out + err
    assert "the build server stopped during the request; building without it" in err
    assert json.loads(out)["ok"]
    assert wait_gone(pid)
    # the next build starts a new server, which finds nothing to do
    assert not built.full()
    assert built.pid() != pid


@pytest.mark.slow
def test_two_clients_at_once_are_both_answered(built):
    kernel = next((built.root / "packages/add_custom").glob("op_kernel/*.cpp"))
    with open(kernel, "a") as fh:
        fh.write("\nstatic const int opkg_test_edit = 2;\n")
    results = [None, None]

    def one(i):
        results[i] = built.opkg("build", "--server", "//...", "--soc", SOC, "--json")

    threads = [threading.Thread(target=one, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    a, b = (json.loads(r.stdout) for r in results)
    assert a["ok"] and b["ok"]
    assert a["targets"] == b["targets"]
    # served one after the other: one built, the other found it built
    assert sorted([a["ran"] > 0, b["ran"] > 0]) == [False, True]


@pytest.mark.slow
def test_ctrl_c_in_the_client_interrupts_the_build_in_the_server(built):
    kernel = next((built.root / "packages/add_custom").glob("op_kernel/*.cpp"))
    with open(kernel, "a") as fh:
        fh.write("\nstatic const int opkg_test_edit = 3;\n")
    pid = built.pid()
    log_size = len(built.log())
    proc = subprocess.Popen([sys.executable, "-m", "opkg", "build", "--server", "//...",
                             "--soc", SOC], cwd=built.root, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            # as from a terminal, however the suite was started (conftest's
                            # start_opkg): an inherited ignored SIGINT would make Ctrl-C a no-op
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 300
    while "request:" not in built.log()[log_size:]:
        assert time.monotonic() < deadline and proc.poll() is None, proc.communicate()
        time.sleep(0.02)
    time.sleep(1.0)                      # into the build (planning or SCons)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, out + err
    assert "interrupted" in err
    assert "stopped during the request" not in err       # the server answered
    assert alive(pid) and built.pid() == pid
    # the server goes on serving, and the interrupted build left nothing to trust
    assert built.full()
    assert built.pid() == pid


# -- answering without work: memory and replayed output -------------------------------------

def test_what_a_replay_may_cover_and_which_outputs_a_memory_depends_on(tmp_path):
    from opkg.build.server import Replies, covering

    replies = Replies()
    env = {"PATH": "/usr/bin"}

    def key(*argv):
        return replies.key({"argv": list(argv), "cwd": "/w", "env": env}, ())

    assert key("build", "--server", "//...", "--soc", "Ascend910B1", "--json", "-j", "2")
    assert key("test", "--color=never", "//packages/x", "-q")
    # options whose effect is more than the output (report files, the remote cache, a case
    # selection read from out/) are never replayed
    assert key("build", "//...", "--junit-xml", "r.xml") is None
    assert key("test", "--last-failed") is None
    assert key("build", "--remote-cache", "grpc://h") is None
    # the outputs and the directories above them, as the watcher names them (real paths)
    real = str(tmp_path / "real-out")
    assert covering(["/w/out/sim/a/k.o", "/w/out/bundles/b.tgz"], "/w/out/", real) == {
        real, f"{real}/sim", f"{real}/sim/a", f"{real}/sim/a/k.o", f"{real}/bundles",
        f"{real}/bundles/b.tgz"}
    assert covering(["/w/out/../src/k.o"], "/w/out", real) is None      # not an output dir's


def _answers(w: Ws) -> list[str]:
    """How the server answered each request so far: 'built' (planned or checked by stat),
    'memory' (a null build it remembered) or 'replay' (its output again)."""
    kinds = []
    for line in w.log().splitlines():
        if ": exit " in line:
            kinds.append("replay" if line.endswith("(its output again)") else
                         "memory" if line.endswith("(a null build from memory)") else "built")
    return kinds


@pytest.mark.slow
def test_a_repeated_null_build_replays_its_output_until_anything_changes(built, cxx_log):
    text = [built.opkg("build", "--server", "//...", "--soc", SOC).stdout for _ in range(3)]
    assert _answers(built)[-3:] == ["built", "memory", "replay"]
    assert text[1] == text[2] and "verified" in text[2]
    # opkg's own bookkeeping in out/ is not an edit: a null build writes nothing there
    assert not built.full() and not built.full()
    assert _answers(built)[-2:] == ["memory", "replay"]
    # a file in out/ that no output depends on: the replay is dropped, the memory kept
    (built.root / "out/unrelated.txt").write_text("x\n")
    assert not built.full()
    assert _answers(built)[-1] == "memory"
    assert not built.full()
    # an edit is seen by the very next request, replayed or not
    kernel = next((built.root / "packages/add_custom").glob("op_kernel/*.cpp"))
    kernel.write_text(kernel.read_text() + "\nstatic const int opkg_test_edit = 4;\n")
    assert built.full()
    assert any(kernel.name in c for c in compiles(cxx_log))
    # an output removed behind a replayed answer is rebuilt
    assert not built.full() and not built.full() and not built.full()
    assert _answers(built)[-1] == "replay"
    bundle = Path(built.last["targets"][0]["bundle"])
    bundle.unlink()
    assert built.full() and bundle.exists()
    # a command that writes a report file is answered from memory but never replayed (the
    # report lies outside the workspace: a write inside it is an event like any edit)
    report = built.root.parent / "report.xml"
    for _ in range(3):
        report.unlink(missing_ok=True)
        built.opkg("build", "--server", "//...", "--soc", SOC, "--junit-xml", str(report))
        assert report.exists()
    assert _answers(built)[-1] == "memory"


def test_the_server_watches_an_external_repository_outside_the_workspace(workspace, tmp_path):
    from opkg.build.server import Server
    from opkg.core.workspace import Workspace

    ext = tmp_path / "ext-repo"
    (ext / "include").mkdir(parents=True)
    (ext / "include/helper.h").write_text("#pragma once\n")
    workspace.write("opkg-workspace.yaml", "package_roots: [packages]\noutput_dir: out\n"
                    "repositories:\n  ext:\n    path: ../ext-repo\n")
    server = Server(Workspace.load(workspace.root), runner=None, idle=0)
    server.watch()
    try:
        assert server.memory.watching
        assert server.drain() is False
        generation = server.memory.generation
        (ext / "include/helper.h").write_text("#pragma once\n// edited\n")
        assert server.drain() is True
        assert server.memory.generation == generation + 1
    finally:
        server.watcher.close()
    # a repository that is not there yet: its arrival could not be seen, so nothing is
    # remembered (every request takes the stat check)
    shutil.rmtree(ext)
    server = Server(Workspace.load(workspace.root), runner=None, idle=0)
    server.watch()
    assert not server.memory.watching and server.watcher is None
