"""The REAPI remote cache against a real BuildGrid server (`bgd`, the `test` extra) on loopback:
a second checkout restores everything, poisoned entries are refused, a dying server costs one
warning, --remote-cache-required fails clearly, bad settings are clear errors."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import WorkspaceFactory, compiles

SOC = "Ascend910B1"
BGD = Path(sys.executable).parent / "bgd"

SERVER_CONFIG = """\
server:
  - !channel
    address: "127.0.0.1:{port}"
    insecure-mode: true
authorization:
  method: none
storages:
  - !disk-storage &cas
    path: {cas}
caches:
  - !lru-action-cache &ac
    storage: *cas
    max-cached-refs: 10000
    allow-updates: true
instances:
  - name: ''
    services:
      - !action-cache
        cache: *ac
      - !cas
        storage: *cas
      - !bytestream
        storage: *cas
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class BuildGrid:
    """`bgd server start` with an on-disk CAS (so a test can damage a blob) and an in-memory
    action cache, on a free loopback port; stopped (its process group) by `stop`."""

    def __init__(self, root: Path, template: str = SERVER_CONFIG, **fields):
        self.root = root
        self.port = free_port()
        self.url = f"grpc://127.0.0.1:{self.port}"
        self.cas = root / "cas"
        cfg = root / "bgd.yml"
        cfg.write_text(template.format(port=self.port, cas=self.cas, **fields))
        self.log = open(root / "bgd.log", "w")
        self.proc = subprocess.Popen([str(BGD), "server", "start", str(cfg)], stdout=self.log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        self._wait_ready()

    def _wait_ready(self, timeout: float = 180) -> None:
        from opkg.remote.client import Client, RemoteError
        from opkg.remote.config import RemoteConfig

        client = Client(RemoteConfig(self.url, f"127.0.0.1:{self.port}", "", False))
        deadline = time.monotonic() + timeout
        try:
            while True:
                if self.proc.poll() is not None:
                    raise RuntimeError("bgd exited:\n" + (self.root / "bgd.log").read_text())
                try:
                    if self.ready(client):
                        return
                except RemoteError:
                    pass
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("bgd did not answer in time:\n"
                                       + (self.root / "bgd.log").read_text())
                time.sleep(0.5)
        finally:
            client.close()

    def ready(self, client) -> bool:
        """The server answers as the tests need (RemoteError or False: not yet)."""
        client.check()
        return True

    def blob_path(self, data: bytes) -> Path:
        h = hashlib.sha256(data).hexdigest()
        return self.cas / "cas" / "objects" / h[:2] / h[2:]

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.log.close()


@pytest.fixture
def bgd(tmp_path):
    root = tmp_path / "bgd"
    root.mkdir()
    server = BuildGrid(root)
    yield server
    server.stop()


def checkout(tmp_path, name: str, remote: str | None) -> WorkspaceFactory:
    """A clone of the same project at another path (absolute paths differ, content does not)."""
    ws = WorkspaceFactory(tmp_path / name)
    ws.copy_package("add_custom")
    if remote:
        with open(ws.root / "opkg-workspace.yaml", "a") as f:
            f.write(f"remote_cache: {remote}\n")
    return ws


def run(ws, *args, cache: Path, env=None, check=None):
    r = subprocess.run([sys.executable, "-m", "opkg", *args], cwd=ws.root, capture_output=True,
                       text=True, timeout=900,
                       env={**os.environ, "OPKG_CACHE_DIR": str(cache), **(env or {})})
    if check is not None:
        assert r.returncode == check, r.stdout + r.stderr
    return r


def build_json(ws, *args, cache, env=None, check=0) -> dict:
    r = run(ws, "build", "//...", "--soc", SOC, "--json", *args, cache=cache, env=env,
            check=check)
    data = json.loads(r.stdout)
    data["stderr"] = r.stderr
    return data


def bundle(ws) -> bytes:
    (path,) = (ws.root / "out" / "bundles").glob("*.opkg.tgz")
    return path.read_bytes()


def remote_warnings(stderr: str) -> list[str]:
    return [l for l in stderr.splitlines() if l.startswith("warning: ") and "remote cache" in l]


# -- against a running server ------------------------------------------------------------------

@pytest.mark.slow
def test_a_second_clean_checkout_compiles_nothing(tmp_path, bgd, cxx_log):
    a = checkout(tmp_path, "a", bgd.url)
    first = build_json(a, cache=tmp_path / "cache-a")
    assert first["ok"] and first["ran"] > 0 and compiles(cxx_log)
    assert first["remote"] == {"hits": 0, "misses": first["ran"], "uploads": first["ran"]}

    cxx_log.unlink()
    b = checkout(tmp_path, "b", bgd.url)
    second = build_json(b, cache=tmp_path / "cache-b")    # an empty local cache
    assert second["ok"] and second["ran"] == 0 and compiles(cxx_log) == [], second["stderr"]
    assert second["remote"] == {"hits": first["ran"], "misses": 0, "uploads": 0}
    assert bundle(b) == bundle(a)
    assert not remote_warnings(second["stderr"])

    # the local cache is the first level: a clean rebuild in b needs no server at all
    bgd.stop()
    run(b, "clean", cache=tmp_path / "cache-b", check=0)
    text = run(b, "build", "//...", "--soc", SOC, "--remote-cache", "off",
               cache=tmp_path / "cache-b", check=0).stdout
    assert "0 steps ran" in text and bundle(b) == bundle(a)

    stats = json.loads(run(b, "cache", "stats", "--json", cache=tmp_path / "cache-b",
                           check=0).stdout)
    assert stats["remote"]["hit_rate"] == 1.0 and stats["remote"]["hits"] == first["ran"]
    shown = run(b, "cache", "stats", cache=tmp_path / "cache-b", check=0).stdout
    assert "remote:   100% hit rate" in shown


@pytest.mark.slow
def test_explain_and_summary_say_remote(tmp_path, bgd):
    a = checkout(tmp_path, "a", bgd.url)
    text = run(a, "build", "//...", "--soc", SOC, "--explain", cache=tmp_path / "ca",
               check=0).stdout
    assert "uploaded to the remote cache" in text
    assert "0 steps from the remote cache" in text.splitlines()[-1]
    b = checkout(tmp_path, "b", bgd.url)
    text = run(b, "build", "//...", "--soc", SOC, "--explain", cache=tmp_path / "cb",
               check=0).stdout
    assert "bundle add_custom (Ascend910B1): output missing" in text
    assert "; restored from the remote cache" in text
    assert "0 uploaded" in text.splitlines()[-1] and "0 steps ran" in text.splitlines()[-1]


@pytest.mark.slow
def test_a_poisoned_entry_is_refused_and_rebuilt(tmp_path, bgd):
    a = checkout(tmp_path, "a", bgd.url)
    build_json(a, cache=tmp_path / "cache-a")
    good = bundle(a)
    blob = bgd.blob_path(good)
    assert blob.is_file()
    # the server's copy of the bundle rots: same size, one byte different
    damaged = bytearray(good)
    damaged[len(damaged) // 2] ^= 0xFF
    blob.write_bytes(bytes(damaged))

    b = checkout(tmp_path, "b", bgd.url)
    result = build_json(b, cache=tmp_path / "cache-b")
    assert result["ok"]
    assert result["ran"] == 1                       # the bundle, made again locally
    assert result["remote"]["misses"] == 1 and result["remote"]["uploads"] == 1
    assert bundle(b) == good
    (warning,) = [w["message"] for w in result["warnings"]]
    assert "rejected the remote cache entry for bundle add_custom" in warning
    assert f"blob {hashlib.sha256(good).hexdigest()[:16]}" in warning


@pytest.mark.slow
def test_server_killed_mid_build_the_build_completes_locally(tmp_path, bgd):
    a = checkout(tmp_path, "a", bgd.url)
    fifo = tmp_path / "checkpoint"
    os.mkfifo(fifo)
    proc = subprocess.Popen([sys.executable, "-m", "opkg", "build", "//...", "--soc", SOC,
                             "--json"], cwd=a.root, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "OPKG_CACHE_DIR": str(tmp_path / "cache-a"),
                                 "OPKG_TEST_CHECKPOINT": f"exec:{fifo}"})
    with open(fifo) as f:          # a compiler is running: the server goes away now
        assert f.read().strip()
    bgd.stop()
    with open(fifo, "w"):
        pass
    out, err = proc.communicate(timeout=900)
    assert proc.returncode == 0, out + err
    result = json.loads(out)
    assert result["ok"] and result["ran"] > 1 and result["remote"]["hits"] == 0
    (warning,) = remote_warnings(err)
    assert f"remote cache {bgd.url}: unreachable" in warning
    assert "building locally for the rest of this build" in warning


@pytest.mark.slow
def test_concurrent_builds_from_two_checkouts_share_one_server(tmp_path, bgd):
    procs = []
    for name in ("a", "b"):
        ws = checkout(tmp_path, name, bgd.url)
        procs.append((ws, subprocess.Popen(
            [sys.executable, "-m", "opkg", "build", "//...", "--soc", SOC, "--json"],
            cwd=ws.root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "OPKG_CACHE_DIR": str(tmp_path / f"cache-{name}")})))
    results = []
    for ws, proc in procs:
        out, err = proc.communicate(timeout=900)
        assert proc.returncode == 0, out + err
        assert not remote_warnings(err), err
        results.append(json.loads(out))
    (a, _), (b, _) = procs
    assert bundle(a) == bundle(b)
    # whatever one uploaded before the other looked it up was a hit; the rest ran in both
    steps = results[0]["ran"] + results[0]["remote"]["hits"]
    assert all(r["ran"] + r["remote"]["hits"] == steps for r in results)
    c = checkout(tmp_path, "c", bgd.url)           # and the server now holds every step
    assert build_json(c, cache=tmp_path / "cache-c")["ran"] == 0


# -- without a server ----------------------------------------------------------------------------

def test_required_fails_clearly_when_the_server_is_down(tmp_path):
    a = checkout(tmp_path, "a", None)
    url = f"grpc://127.0.0.1:{free_port()}"
    r = run(a, "build", "//...", "--soc", SOC, "--remote-cache", url, "--remote-cache-required",
            cache=tmp_path / "cache")
    assert r.returncode == 1
    assert f"error: remote cache {url}: unreachable" in r.stderr
    assert "--remote-cache-required" in r.stderr
    assert not list((a.root / "out").rglob("*.o"))          # nothing was built


def test_a_server_that_never_answers_costs_one_deadline(tmp_path):
    """A port that accepts connections and says nothing (a hung server): the call's deadline
    ends the wait; with --remote-cache-required that is a clear failure before anything runs."""
    a = checkout(tmp_path, "a", None)
    with socket.socket() as hung:
        hung.bind(("127.0.0.1", 0))
        hung.listen(8)                  # the kernel accepts; nobody ever answers
        url = f"grpc://127.0.0.1:{hung.getsockname()[1]}"
        r = run(a, "build", "//...", "--soc", SOC, "--remote-cache", url,
                "--remote-cache-required", cache=tmp_path / "cache",
                env={"OPKG_REMOTE_CACHE_TIMEOUT": "2"})
    assert r.returncode == 1, r.stdout + r.stderr
    assert f"error: remote cache {url}: no answer within 2s" in r.stderr
    assert not list((a.root / "out").rglob("*.o"))


@pytest.mark.slow
def test_a_server_that_is_down_is_one_warning_and_a_local_build(tmp_path):
    a = checkout(tmp_path, "a", f"grpc://127.0.0.1:{free_port()}")
    r = run(a, "build", "//...", "--soc", SOC, cache=tmp_path / "cache", check=0)
    (warning,) = remote_warnings(r.stderr)
    assert "unreachable" in warning and "building locally" in warning
    assert "1 verified" in r.stdout


@pytest.mark.parametrize("url, message", [
    ("http://127.0.0.1:8980", "REAPI caches speak gRPC, not HTTP"),
    ("grpc://127.0.0.1", "no port"),
    ("grpc://127.0.0.1:99999", "not a number from 1 to 65535"),
    ("grpc://user:secret@host:1", "credentials do not belong in the URL"),
    ("cache.example:8980", "is not a URL"),
])
def test_bad_urls_are_clear_errors(tmp_path, url, message):
    a = checkout(tmp_path, "a", None)
    r = run(a, "build", "--remote-cache", url, cache=tmp_path / "cache")
    assert r.returncode == 2 and "--remote-cache" in r.stderr and message in r.stderr
    r = run(a, "build", cache=tmp_path / "cache", env={"OPKG_REMOTE_CACHE": url})
    assert r.returncode == 2 and "$OPKG_REMOTE_CACHE" in r.stderr and message in r.stderr
    assert "Traceback" not in r.stderr


def test_bad_workspace_settings_point_at_the_line(tmp_path):
    a = checkout(tmp_path, "a", "grpc://cache.example")
    r = run(a, "build", cache=tmp_path / "cache")
    assert r.returncode == 2
    assert "opkg-workspace.yaml:4:15: error: remote_cache: 'grpc://cache.example': no port" \
        in r.stderr

    (a.root / "opkg-workspace.yaml").write_text(
        "remote_cache:\n  url: grpc://cache.example:8980\n  token: abc123\n")
    r = run(a, "build", cache=tmp_path / "cache")
    assert r.returncode == 2 and "opkg-workspace.yaml:3:3" in r.stderr
    assert "secrets never go in the workspace file" in r.stderr and "abc123" not in r.stderr

    (a.root / "opkg-workspace.yaml").write_text(
        "remote_cache:\n  url: grpc://cache.example:8980\n  token_file: missing-token\n")
    r = run(a, "build", cache=tmp_path / "cache")
    assert r.returncode == 2 and "token_file" in r.stderr and "missing-token" in r.stderr

    (a.root / "opkg-workspace.yaml").write_text(
        "remote_cache:\n  url: grpc://cache.example:8980\n  ca_cert: ca.pem\n")
    (a.root / "ca.pem").write_text("x")
    r = run(a, "build", cache=tmp_path / "cache")
    assert r.returncode == 2 and "certificates need TLS" in r.stderr and "grpcs://" in r.stderr


def test_an_action_digest_depends_on_content_not_on_the_checkout_path(tmp_path):
    from opkg.remote.actions import PathMap, make_action
    from opkg.remote.client import re_pb2

    def action(root: Path, source: str, flag: str = "-O2"):
        (root / "src").mkdir(parents=True, exist_ok=True)
        (root / "src" / "k.cpp").write_text(source)
        (root / "src" / "k.h").write_text("#pragma once\n")
        src, out = str(root / "src" / "k.cpp"), str(root / "out" / "k.o")
        return make_action(identity=f'{{"argv": ["g++", "{src}"]}}',
                           argv=["g++", flag, "-c", src, "-o", out], kind="exec",
                           outputs=[out], inputs=[src, str(root / "src" / "k.h")],
                           signature="fp1", paths=PathMap({str(root / "out"): "out",
                                                           str(root): "<workspace>"}))

    a = action(tmp_path / "a", "int x;\n")
    b = action(tmp_path / "clone" / "b", "int x;\n")
    assert a.digest == b.digest and a.output_paths != b.output_paths
    assert set(a.output_paths.values()) == {"out/k.o"}
    assert action(tmp_path / "c", "int y;\n").digest != a.digest        # one input byte
    assert action(tmp_path / "d", "int x;\n", "-O3").digest != a.digest  # one flag
    # the Action's blobs are the REAPI messages, each stored under its own digest
    msg = re_pb2.Action.FromString(a.blobs[a.digest.hash][1])
    command = re_pb2.Command.FromString(a.blobs[msg.command_digest.hash][1])
    assert command.arguments[-3:] == ["workspace/src/k.cpp", "-o", "out/k.o"]
    assert {(p.name, p.value) for p in command.platform.properties} >= {("opkg-toolchain", "fp1")}
    root = re_pb2.Directory.FromString(a.blobs[msg.input_root_digest.hash][1])
    assert [f.name for f in root.files] == [".opkg-step.json"]
    assert [d.name for d in root.directories] == ["workspace"]


def test_aliases_replace_whole_path_components_only():
    from opkg.core.actions import alias_paths

    aliases = {"/w/b": "<workspace>", "/w/b/out": "<out>"}
    assert alias_paths('["/w/bin/g++", "-I/w/b", "/w/b/x.cpp", "/w/b/out/x.o"]', aliases) == \
        '["/w/bin/g++", "-I<workspace>", "<workspace>/x.cpp", "<out>/x.o"]'
