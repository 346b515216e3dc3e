"""Distributed compiles through distcc (Debian's distcc 3.4), through the real CLI.

A real `distccd` runs on loopback for the tests that build (allowing 127.0.0.1 only); its log
proves which compiles it served. Objects and bundles must be byte-identical to a local build,
and a step's cache key the same with distcc on or off.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from opkg.build import distcc
from opkg.core.errors import Location
from tests.conftest import opkg

SOC = "Ascend910B1"
_SERVED = re.compile(r"COMPILE_OK .* (\S+)$")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Distccd:
    def __init__(self, port: int, log: Path):
        self.port = port
        self.log = log

    def served(self) -> list[str]:
        """The source file of every compile the daemon completed."""
        text = self.log.read_text(errors="replace")
        return [m.group(1) for m in map(_SERVED.search, text.splitlines()) if m]


@pytest.fixture
def distcc_dir(tmp_path, monkeypatch) -> Path:
    """distcc's own state (host locks, back-off after a dead host) per test, never ~/.distcc:
    a dead-host test must not make a later test's daemon port look dead."""
    d = tmp_path / "distcc-state"
    d.mkdir()
    monkeypatch.setenv("DISTCC_DIR", str(d))
    monkeypatch.delenv("DISTCC_HOSTS", raising=False)
    return d


@pytest.fixture
def distccd(tmp_path, distcc_dir):
    """A real distccd on a free loopback port, stopped (with its workers) after the test. It
    logs to stderr, into a file this process opened: run as root, distccd drops to its own
    user, which could not open a log file under pytest's private temporary directory."""
    if shutil.which("distccd") is None:
        pytest.fail("distccd is not installed; `make test` installs it (Debian: apt-get "
                    "install distcc)")
    port = _free_port()
    log = tmp_path / "distccd.log"
    with open(log, "w") as err:
        proc = subprocess.Popen(
            ["distccd", "--daemon", "--no-detach", "--allow", "127.0.0.1", "--listen",
             "127.0.0.1", "--port", str(port), "--log-stderr", "--log-level=info"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
            start_new_session=True)
    try:
        deadline = time.monotonic() + 20
        while "listening on" not in log.read_text(errors="replace"):
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "distccd did not start:\n" + log.read_text()
            time.sleep(0.1)
        yield Distccd(port, log)
    finally:
        # the preforked workers share the daemon's session (start_new_session): stop them all
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        except ProcessLookupError:
            pass


def _workspace_file(root: Path, distcc_section: str = "") -> None:
    (root / "opkg-workspace.yaml").write_text(
        "package_roots: [packages]\noutput_dir: out\ndefault_socs: [Ascend910B1]\n"
        + distcc_section)


def _outputs(root: Path) -> dict[str, bytes]:
    """Every object, library and bundle a build wrote, by path relative to out/."""
    out = root / "out"
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and p.suffix in (".o", ".so", ".tgz")}


@pytest.mark.slow
def test_compiles_run_on_distccd_and_match_a_local_build(distccd, add_custom_cache, workspace,
                                                         tmp_path, monkeypatch):
    # the shared add_custom cache holds a local build of the same package (no distcc)
    local_cache = add_custom_cache
    distcc_cache = tmp_path / "distcc-cache"
    monkeypatch.setenv("OPKG_CACHE_DIR", str(distcc_cache))
    workspace.copy_package("add_custom")
    _workspace_file(workspace.root, f"distcc:\n  hosts: '127.0.0.1:{distccd.port}/5'\n")
    r = opkg("build", "//...", "--soc", SOC, "--json", cwd=workspace.root, check=0)
    result = json.loads(r.stdout)
    assert result["ok"] and result["cached"] == 0 and result["warnings"] == [], r.stderr
    # -j from the hosts' slots, never below this machine's CPUs
    assert f"(-j{max(5, len(os.sched_getaffinity(0)))})" in r.stderr

    # every compile step of the plan, and nothing else, was served by the daemon
    plan = json.loads((workspace.root / "out/.opkg/plan.json").read_text())
    compiled = sorted(a["argv"][a["argv"].index("-c") + 1] for a in plan["actions"]
                      if a["step"] == "compile")
    assert len(compiled) == 7        # host: runtime, entry, tiling; kernel: runtime, entry, 2
    assert sorted(distccd.served()) == compiled

    # byte-identical to a local build: a second checkout restores the local build's outputs
    local = tmp_path / "local"
    local.mkdir()
    shutil.copytree(workspace.root / "packages", local / "packages")
    _workspace_file(local)
    monkeypatch.setenv("OPKG_CACHE_DIR", str(local_cache))
    r = opkg("build", "//...", "--soc", SOC, "--json", cwd=local, check=0)
    assert json.loads(r.stdout)["ran"] == 0, "the local reference must come from the cache"
    distributed, reference = _outputs(workspace.root), _outputs(local)
    assert sorted(distributed) == sorted(reference)
    assert any(name.endswith("kernel.o") for name in distributed)
    different = [name for name in distributed if distributed[name] != reference[name]]
    assert different == []

    # the same cache keys with distcc off: a third checkout restores everything from the
    # cache the distcc build filled
    third = tmp_path / "third"
    third.mkdir()
    shutil.copytree(workspace.root / "packages", third / "packages")
    _workspace_file(third, "distcc:\n  hosts: 127.0.0.1:1\n  enabled: false\n")
    monkeypatch.setenv("OPKG_CACHE_DIR", str(distcc_cache))
    r = opkg("build", "//...", "--soc", SOC, "--json", cwd=third, check=0)
    assert json.loads(r.stdout)["ran"] == 0
    assert _outputs(third) == distributed


@pytest.mark.slow
def test_a_dead_host_falls_back_to_local_compiles_with_one_warning(add_custom_cache, workspace,
                                                                   distcc_dir, monkeypatch):
    workspace.copy_package("add_custom")
    # everything but the two kernel objects comes from the cache; those compile again
    kernel = workspace.root / "packages/add_custom/op_kernel/add_custom.cpp"
    kernel.write_text(kernel.read_text() + "\n// edited\n")
    dead = _free_port()              # nothing listens there
    monkeypatch.setenv("DISTCC_HOSTS", f"127.0.0.1:{dead}")
    r = opkg("build", "//...", "--soc", SOC, "--json", cwd=workspace.root, check=0)
    result = json.loads(r.stdout)
    assert result["ok"] and result["ran"] > 0
    [warning] = result["warnings"]
    assert warning["message"].startswith("distcc compiled on this machine instead")
    assert f"(hosts 127.0.0.1:{dead}: " in warning["message"]
    # distcc's reason: the refused connect, or, for a compile that started after a sibling's
    # refused connect had put the host in distcc's backoff, only that it ran locally
    assert ("Connection refused" in warning["message"]
            or "failed to distribute, running locally instead" in warning["message"])
    assert r.stderr.count("distcc compiled on this machine") == 1


@pytest.mark.slow
def test_a_compile_error_through_distcc_reads_as_a_local_one(distccd, add_custom_cache,
                                                              workspace):
    workspace.copy_package("add_custom")
    _workspace_file(workspace.root, f"distcc:\n  hosts: '127.0.0.1:{distccd.port}'\n")
    kernel = workspace.root / "packages/add_custom/op_kernel/add_custom.cpp"
    # a compile error, not a preprocessor one: preprocessing is local, this fails on the host
    kernel.write_text(kernel.read_text()
                      + '\nstatic_assert(sizeof(int) == 0, "broken on purpose");\n')
    r = opkg("build", "//...", "--soc", SOC, "--json", cwd=workspace.root, check=1)
    result = json.loads(r.stdout)
    assert result["failures"] and result["warnings"] == []
    for failure in result["failures"]:
        assert "broken on purpose" in failure["output"] and "error:" in failure["output"]
        assert "distcc[" not in failure["output"]        # distcc's own lines are not shown
    assert "COMPILE_ERROR" in distccd.log.read_text()   # the host compiled it, and failed


# -- settings -------------------------------------------------------------------------------

@pytest.mark.parametrize("section, line, message, hint", [
    ("distcc: build1/8\n", 4, "distcc: expected a mapping", "hosts:"),
    ("distcc:\n  host: build1/8\n", 5, "unknown distcc setting 'host'", "did you mean 'hosts'?"),
    ("distcc:\n  hosts: 8\n", 5, "distcc.hosts: expected distcc host specifications",
     "HOST[:PORT][/SLOTS]"),
    ("distcc:\n  hosts: build1\n  enabled: maybe\n", 6, "distcc.enabled: expected true or false",
     None),
    # checked by distcc's own host parser when a build uses them
    ("distcc:\n  hosts: 'build1:http'\n", 5,
     "distcc.hosts: distcc rejects 'build1:http': invalid tcp port", "HOST[:PORT]"),
    ("distcc:\n  hosts: 'build1/0'\n", 5, "bad multiplier", "SLOTS"),
    ("distcc:\n  enabled: true\n", 4, "distcc is enabled but names no hosts", "DISTCC_HOSTS"),
    ("distcc:\n  hosts: build1,cpp,lzo\n", 5, "pump mode", "drop ',cpp'"),
])
def test_malformed_settings_are_errors_at_their_line(workspace, distcc_dir, section, line,
                                                     message, hint):
    workspace.operator("add_one")
    _workspace_file(workspace.root, section)
    r = opkg("build", "//...", cwd=workspace.root, check=2)
    first = r.stderr.splitlines()[0]     # the first thing said
    assert first.startswith(f"opkg-workspace.yaml:{line}:"), r.stderr
    assert message in first, r.stderr
    if hint:
        assert "hint:" in r.stderr and hint in r.stderr.split("hint:", 1)[1], r.stderr
    assert not (workspace.root / "out" / "sim").exists()   # nothing ran


def test_malformed_hosts_from_the_environment_name_the_variable(workspace, distcc_dir,
                                                                 monkeypatch):
    workspace.operator("add_one")
    monkeypatch.setenv("DISTCC_HOSTS", "/4")
    r = opkg("build", "//...", cwd=workspace.root, check=2)
    assert r.stderr.startswith("error: DISTCC_HOSTS: distcc rejects '/4': hostname is "
                               "required"), r.stderr


def test_distcc_missing_is_an_error_with_an_install_hint(workspace, distcc_dir, tmp_path,
                                                          monkeypatch):
    workspace.operator("add_one")
    _workspace_file(workspace.root, "distcc:\n  hosts: build1/8\n")
    empty = tmp_path / "empty-path"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    r = opkg("build", "//...", cwd=workspace.root, check=1)
    assert "distcc is enabled but the distcc client is not installed" in r.stderr
    assert "apt-get install distcc" in r.stderr


def test_off_unless_asked_for():
    here = Location(Path("opkg-workspace.yaml"), 4, 3)
    # a laptop without distcc settings builds as before
    assert distcc.resolve(None, env={}) is None
    # enabled: false wins over $DISTCC_HOSTS (set for other projects)
    off = distcc.DistccSettings("build1/8", False, here)
    assert distcc.resolve(off, env={"DISTCC_HOSTS": "build2/4"}) is None


def test_environment_hosts_replace_the_workspace_hosts(distcc_dir):
    here = Location(Path("opkg-workspace.yaml"), 4, 3)
    on = distcc.DistccSettings("build1/8", True, here)
    assert distcc.resolve(on, env={**os.environ}).slots == 8
    got = distcc.resolve(on, env={**os.environ, "DISTCC_HOSTS": "build2/3 build3/4"})
    assert got.hosts == "build2/3 build3/4" and got.slots == 7
    # $DISTCC_HOSTS alone turns distcc on
    assert distcc.resolve(None, env={**os.environ, "DISTCC_HOSTS": "build2/3"}).slots == 3


def test_hosts_as_a_yaml_list(tmp_path):
    from opkg.core import settings, yamlloc

    doc = yamlloc.loads("distcc:\n  hosts: [build1/4, 'build2:3633/2']\n",
                        tmp_path / "opkg-workspace.yaml")
    got = settings.distcc_from_workspace(doc.data["distcc"], doc)
    assert got.hosts == "build1/4 build2:3633/2" and got.enabled
    assert got.location.line == 2
