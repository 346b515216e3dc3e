"""Remote execution against a real BuildGrid (`bgd`, the `test` extra) with its scheduler on a
real PostgreSQL (Debian's `postgresql`, installed by the Makefile) and two `opkg worker` bots,
all on loopback: a build with --remote-exec gives the bundle of a local build byte for byte,
its steps spread over both workers, a worker's compile error points at the user's file, and
bad settings are clear errors."""

from __future__ import annotations

import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.conftest import WorkspaceFactory
from tests.test_remote_cache import BGD, SERVER_CONFIG, BuildGrid, free_port

SOC = "Ascend910B1"
# one worker runs the whole file (make test: --dist loadgroup), so its module fixture starts
# PostgreSQL, BuildGrid and two workers once per run, not once per worker
pytestmark = pytest.mark.xdist_group("test_remote_exec")

# the remote cache tests' server, plus the scheduler's database and the Execution service
EXEC_CONFIG = SERVER_CONFIG.replace("storages:", """\
connections:
  - !sql-connection &sql
    connection-string: {database}
    pool-size: 5
    pool-timeout: 30
    max-overflow: 10
storages:""").replace("instances:", """\
schedulers:
  - !sql-scheduler &scheduler
    sql: *sql
    action-cache: *ac
    storage: *cas
    property-set: !dynamic-property-set
      wildcard-property-keys: [opkg-format, opkg-toolchain]
instances:""").replace("      - !cas", """\
      - !execution
        scheduler: *scheduler
      - !cas""")


def _pg_tool(name: str) -> str:
    found = shutil.which(name) or next(iter(sorted(
        glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None)
    if not found:
        raise RuntimeError(f"PostgreSQL's {name} is not installed (Debian: postgresql; "
                           "`make test` installs it)")
    return found


class Postgres:
    """A throw-away PostgreSQL cluster on a free loopback port (BuildGrid's scheduler refuses
    any other database). As root it runs as the `postgres` user, which PostgreSQL requires."""

    def __init__(self):
        self.dir = Path(tempfile.mkdtemp(prefix="opkg-pg-"))
        self.port = free_port()
        self.as_user = []
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        data = self.dir / "data"
        subprocess.run([*self.as_user, _pg_tool("initdb"), "-D", str(data), "-U", "bgd",
                        "--auth=trust", "-E", "UTF8"], check=True, capture_output=True)
        self.log = open(self.dir / "server.log", "w") if not self.as_user else subprocess.DEVNULL
        self.proc = subprocess.Popen(
            [*self.as_user, _pg_tool("postgres"), "-D", str(data), "-h", "127.0.0.1", "-p",
             str(self.port), "-k", str(self.dir), "-c", "fsync=off"],
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        self.url = f"postgresql+psycopg2://bgd@127.0.0.1:{self.port}/postgres"
        deadline = time.monotonic() + 60
        while subprocess.run([*self.as_user, _pg_tool("pg_isready"), "-h", "127.0.0.1", "-p",
                              str(self.port)], capture_output=True).returncode != 0:
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("PostgreSQL did not start")
            time.sleep(0.3)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGINT)        # a fast shutdown
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


class ExecutionService(BuildGrid):
    """BuildGrid with CAS, action cache, Execution and Bots services; `opkg worker` bots."""

    def __init__(self, root: Path, database: str):
        subprocess.run([str(BGD), "migrate", "apply", database], check=True,
                       capture_output=True)
        self.workers: dict[str, subprocess.Popen] = {}
        super().__init__(root, EXEC_CONFIG, database=database)

    def ready(self, client) -> bool:
        return client.check_execution()

    def start_worker(self, name: str) -> None:
        log = open(self.root / f"{name}.log", "w")
        self.workers[name] = subprocess.Popen(
            [sys.executable, "-m", "opkg", "worker", self.url, "--name", name, "--work-dir",
             str(self.root / f"work-{name}")], stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True)

    def worker_log(self, name: str) -> str:
        return (self.root / f"{name}.log").read_text()

    def stop(self) -> None:
        for proc in self.workers.values():
            if proc.poll() is None:
                proc.terminate()             # the bot ends between two server calls
        for proc in self.workers.values():
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        super().stop()


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    database = Postgres()
    root = tmp_path_factory.mktemp("bgd-exec")
    try:
        server = ExecutionService(root, database.url)
    except BaseException:
        database.stop()
        raise
    try:
        server.start_worker("w1")
        server.start_worker("w2")
        yield server
    finally:
        server.stop()
        database.stop()


def checkout(tmp_path, name: str) -> WorkspaceFactory:
    ws = WorkspaceFactory(tmp_path / name)
    ws.copy_package("add_custom")
    return ws


def build(ws, *args, cache: Path):
    return subprocess.run([sys.executable, "-m", "opkg", "build", "//...", "--soc", SOC,
                           "--jobs", "4", *args], cwd=ws.root, capture_output=True, text=True,
                          timeout=1200, env={**os.environ, "OPKG_CACHE_DIR": str(cache)})


def bundle(ws) -> bytes:
    (path,) = (ws.root / "out" / "bundles").glob("*.opkg.tgz")
    return path.read_bytes()


@pytest.mark.slow
def test_remote_execution_gives_the_local_bundle_and_uses_both_workers(tmp_path, service):
    local = checkout(tmp_path, "local")
    r = build(local, cache=tmp_path / "cache-local")
    assert r.returncode == 0, r.stdout + r.stderr

    remote = checkout(tmp_path, "remote")
    with open(remote.root / "opkg-workspace.yaml", "a") as f:     # the workspace setting
        f.write(f"remote_exec: {service.url}\n")
    r = build(remote, "--json", cache=tmp_path / "cache-remote")
    assert r.returncode == 0, r.stdout + r.stderr
    data = json.loads(r.stdout)
    assert data["ok"] and data["failures"] == []
    plan = json.loads((remote.root / "out" / ".opkg" / "plan.json").read_text())
    sent = [a for a in plan["actions"] if a["step"] in ("compile", "link", "verify")]
    workers = data["remote_exec"]["workers"]
    assert data["remote_exec"]["steps"] == len(sent)
    assert set(workers) == {"w1", "w2"} and all(n > 0 for n in workers.values()), workers
    assert bundle(remote) == bundle(local)
    # the verification ran on a worker and says so in its own log; reports are the local ones
    for name in ("w1", "w2"):
        assert "done in" in service.worker_log(name)
    for variant in ("float16", "float32"):
        rel = f"out/sim/add_custom/{SOC}/{variant}/verification.json"
        assert json.loads((remote.root / rel).read_text())["passed"]

    # nothing to do: no server needed
    r = build(remote, "--remote-exec", "off", cache=tmp_path / "cache-remote")
    assert r.returncode == 0 and "0 steps ran" in r.stdout.splitlines()[-1]

    # `opkg test --no-cache` verifies again on a worker: the server's action cache holds both
    # verifications, and must not answer for them
    runs = sum(service.worker_log(n).count(" done in ") for n in ("w1", "w2"))
    r = subprocess.run([sys.executable, "-m", "opkg", "test", "//...", "--soc", SOC,
                        "--no-cache", "--json"], cwd=remote.root, capture_output=True,
                       text=True, timeout=600,
                       env={**os.environ, "OPKG_CACHE_DIR": str(tmp_path / "cache-remote")})
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout)["remote_exec"]["steps"] == 2
    assert sum(service.worker_log(n).count(" done in ") for n in ("w1", "w2")) == runs + 2


@pytest.mark.slow
def test_a_compile_error_on_a_worker_points_at_the_users_file(tmp_path, service):
    ws = checkout(tmp_path, "broken")
    kernel = ws.root / "packages" / "add_custom" / "op_kernel" / "add_custom.cpp"
    lines = kernel.read_text().splitlines() + ["this is not C++;"]
    kernel.write_text("\n".join(lines) + "\n")
    r = build(ws, "--remote-exec", service.url, "--json", cache=tmp_path / "cache")
    assert r.returncode != 0
    failures = json.loads(r.stdout)["failures"]      # the kernel's compile, per dtype variant
    assert failures and all(f["step"] == "compile" for f in failures), failures
    for failure in failures:
        # the worker compiled `workspace/packages/...` in its scratch directory; the message
        # names this checkout's file, as a local compile's would
        assert f"{kernel}:{len(lines)}:1: error: " in failure["output"], failure["output"]
        assert "workspace/packages" not in failure["output"]


def test_remote_exec_errors_are_clear(tmp_path):
    ws = checkout(tmp_path, "a")
    r = build(ws, "--remote-exec", "http://example:80", cache=tmp_path / "c")
    assert r.returncode != 0 and "REAPI caches speak gRPC" in r.stderr

    port = free_port()          # nothing listens there
    r = build(ws, "--remote-exec", f"grpc://127.0.0.1:{port}", cache=tmp_path / "c")
    assert r.returncode != 0
    assert f"remote execution grpc://127.0.0.1:{port}: unreachable" in r.stderr
    assert "--remote-exec off" in r.stderr

    with open(ws.root / "opkg-workspace.yaml", "a") as f:
        f.write("remote_exec: {url: grpc://127.0.0.1:1, token: hunter2}\n")
    r = build(ws, cache=tmp_path / "c")
    assert r.returncode != 0 and "opkg-workspace.yaml:4:" in r.stderr
    assert "secrets never go in the workspace file" in r.stderr

    r = subprocess.run([sys.executable, "-m", "opkg", "worker", f"grpc://127.0.0.1:{port}",
                        "--name", "w"], capture_output=True, text=True, timeout=120)
    assert r.returncode != 0 and "unreachable" in r.stderr
    r = subprocess.run([sys.executable, "-m", "opkg", "worker", "grpc://nowhere"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode != 0 and "no port" in r.stderr
