"""Reliability on the real filesystem with real processes: kill -9 between publish steps,
concurrent publishers, damaged registries, a registry path that is a file, no permission."""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from registry_testlib import REPO, child_env, spawn_opkg
from opkg.registry.check import check
from opkg.registry.install import install
from opkg.registry.publish import publish_bundles
from opkg.registry.records import PAUSE_ENV, RESUME_ENV, sha256_file
from opkg.registry.store import Store

STEPS_BEFORE_COMMIT = ["blob-staged", "blobs-written", "record-staged"]
STEPS_AFTER_COMMIT = ["record-committed", "index-staged"]


def wait_paused(proc: subprocess.Popen, step: str, timeout: float = 30.0) -> None:
    """Block until the child reports it reached `step` (it prints one line on stderr)."""
    deadline = time.monotonic() + timeout
    line = ""
    while time.monotonic() < deadline:
        # select first, so a child that hangs silently fails the test instead of blocking it
        if not select.select([proc.stderr], [], [], max(0.0, deadline - time.monotonic()))[0]:
            break
        line = proc.stderr.readline()
        if f"paused at {step}" in line:
            return
        if not line and proc.poll() is not None:
            break
    proc.kill()
    out, err = proc.communicate()
    pytest.fail(f"child never paused at {step}: last={line!r} exit={proc.returncode} "
                f"out={out!r} err={err!r}")


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()} if root.exists() else {}


@pytest.mark.parametrize("step", STEPS_BEFORE_COMMIT + STEPS_AFTER_COMMIT)
def test_kill_9_at_each_step(step, bundles, registry, tmp_path):
    store = Store(registry)
    publish_bundles(store, [bundles(name="layernorm")])  # an existing package must survive
    index_before = store.index_path.read_bytes()
    b = bundles()

    proc = spawn_opkg("publish", "--bundle", b, "--registry", registry,
                      env=child_env(**{PAUSE_ENV: step}))
    wait_paused(proc, step)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    proc.stdout.close(), proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL

    # The index is never torn: it is the old one, whole.
    assert store.index_path.read_bytes() == index_before
    json.loads(store.index_path.read_bytes())
    catalog = store.catalog()
    assert "layernorm" in catalog
    if step in STEPS_BEFORE_COMMIT:
        # Killed before the commit point: no trace of the version anywhere readers look.
        assert "add_custom" not in catalog
        assert not (registry / "records" / "add_custom").exists()
        assert check(store).ok
    else:
        # Killed after the commit point: the version is published, whole and verifiable,
        # even though the index lags; check warns, it does not fail.
        assert not catalog["add_custom"]["1.0.0"].indexed
        r = install(store, "add_custom", soc="Ascend910B1", dest=tmp_path / "ops")
        assert r.version == "1.0.0"
        report = check(store)
        assert report.ok and any("not in the index yet" in p.message for p in report.problems)

    # The next publish succeeds and leaves a consistent registry.
    again = spawn_opkg("publish", "--bundle", b, "--registry", registry, "--json")
    out, err = again.communicate(timeout=60)
    assert again.returncode == 0, err
    [version] = json.loads(out)["versions"]
    assert version["status"] == ("published" if step in STEPS_BEFORE_COMMIT else "unchanged")
    index = json.loads(store.index_path.read_text())
    assert set(index["packages"]) == {"add_custom", "layernorm"}
    assert store.catalog()["add_custom"]["1.0.0"].indexed
    report = check(store)
    assert report.ok
    assert not any("not in the index" in p.message for p in report.problems)


def _race(registry, bundle_paths, step, tmp_path):
    """Start one publisher per bundle, hold them all at `step`, release them together."""
    resume = tmp_path / f"go-{step}"
    # On an OCI registry the claim's settle time must outlast a publisher's stall between
    # its look and its commit; the tests run on loaded machines, so the product default.
    env = child_env(**{PAUSE_ENV: step, RESUME_ENV: str(resume), "OPKG_OCI_SETTLE": "2"})
    procs = [spawn_opkg("publish", "--bundle", b, "--registry", registry, "--json", env=env)
             for b in bundle_paths]
    for p in procs:
        wait_paused(p, step)
    resume.touch()
    results = []
    for p in procs:
        out, err = p.communicate(timeout=60)
        results.append((p.returncode, out, err))
    return results


def test_concurrent_same_version_different_contents_exactly_one_wins(bundles, backend, tmp_path):
    backend.open().ensure_writable()
    a = bundles(payload=b"kernel A", subdir="a")
    b = bundles(payload=b"kernel B", subdir="b")
    # Both passed the "is it taken?" check and wrote their blobs; both now try to commit.
    results = _race(backend.location, [a, b], "blobs-written", tmp_path)
    codes = sorted(code for code, _, _ in results)
    assert codes == [0, 1], results
    winner = next(out for code, out, _ in results if code == 0)
    loser_err = next(err for code, _, err in results if code == 1)
    assert json.loads(winner)["versions"][0]["status"] == "published"
    assert "already published with different contents" in loser_err
    assert "Traceback" not in loser_err
    record = backend.open().read_record("add_custom", "1.0.0")
    won = json.loads(winner)["versions"][0]["bundles"][0]["blob"]
    assert record["bundles"][0]["blob"] == won
    assert won in {sha256_file(a), sha256_file(b)}
    assert backend.open().check().ok


def test_concurrent_same_version_identical_contents_one_publishes_one_noop(bundles, backend,
                                                                          tmp_path):
    backend.open().ensure_writable()
    a = bundles(subdir="a")
    b = bundles(subdir="b")  # byte-identical copy in another place
    assert a.read_bytes() == b.read_bytes()
    results = _race(backend.location, [a, b], "blobs-written", tmp_path)
    assert [code for code, _, _ in results] == [0, 0], results
    statuses = sorted(json.loads(out)["versions"][0]["status"] for _, out, _ in results)
    assert statuses == ["published", "unchanged"]
    assert backend.open().check().ok


def test_concurrent_different_packages_both_land(bundles, backend, tmp_path):
    backend.open().ensure_writable()
    a = bundles(name="add_custom")
    b = bundles(name="layernorm")
    # Both records are committed; both now finish (the index, the bundle tags) at once.
    results = _race(backend.location, [a, b], "record-committed", tmp_path)
    assert [code for code, _, _ in results] == [0, 0], results
    catalog = backend.open().catalog()
    assert set(catalog) == {"add_custom", "layernorm"}
    assert all(v.indexed for pkg in catalog.values() for v in pkg.values())
    if backend.kind == "dir":
        index = json.loads((backend.location / "index.json").read_text())
        assert set(index["packages"]) == {"add_custom", "layernorm"}
    report = backend.open().check()
    assert report.ok and report.problems == []


def test_many_concurrent_publishers_of_different_packages(bundles, backend):
    backend.open().ensure_writable()
    names = [f"op{i}" for i in range(8)]
    paths = [bundles(name=n) for n in names]
    procs = [spawn_opkg("publish", "--bundle", p, "--registry", backend.location)
             for p in paths]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    assert sorted(backend.open().catalog()) == names
    report = backend.open().check()
    assert report.ok and report.problems == []


def test_registry_path_is_a_file(bundles, tmp_path, run_opkg):
    path = tmp_path / "not-a-dir"
    path.write_text("hello")
    for args in (["publish", "--bundle", bundles()], ["search"], ["info", "x"],
                 ["install", "x", "--soc", "Ascend910B1", "--dest", tmp_path / "d"],
                 ["yank", "x==1.0", "--reason", "r"], ["registry", "check"]):
        code, out, err = run_opkg(*args, "--registry", path)
        assert code == 2, (args, out, err)     # bad input, like any wrong path argument
        assert f"registry path {path} is a file, not a directory" in err
        assert "Traceback" not in err
    assert path.read_text() == "hello"


def test_malformed_index_stops_every_command_cleanly(bundles, registry, run_opkg, tmp_path):
    publish_bundles(Store(registry), [bundles()])
    (registry / "index.json").write_text('{"format": 1, "packages": ')
    before = snapshot(registry)
    for args in (["publish", "--bundle", bundles(name="layernorm")], ["search"],
                 ["info", "add_custom"], ["yank", "add_custom==1.0.0", "--reason", "r"],
                 ["install", "add_custom", "--soc", "Ascend910B1", "--dest", tmp_path / "d"]):
        code, out, err = run_opkg(*args, "--registry", registry)
        assert code == 1, (args, err)
        assert "malformed registry index" in err and "--repair" in err
        assert "Traceback" not in err
    assert snapshot(registry) == before  # nothing half-written, not even a blob
    code, out, err = run_opkg("registry", "check", "--repair", "--registry", registry)
    assert code == 0, err
    assert "rebuilt the index" in out


def test_malformed_record_is_reported_not_crashed_on(bundles, registry, run_opkg):
    publish_bundles(Store(registry), [bundles()])
    path = registry / "records" / "add_custom" / "1.0.0.json"
    path.chmod(0o644)
    path.write_text("{")
    code, out, err = run_opkg("info", "add_custom==1.0.0", "--registry", registry)
    assert code == 1 and "Traceback" not in err
    assert "does not match the digest in the index" in err
    code, out, err = run_opkg("registry", "check", "--registry", registry)
    assert code == 1 and "malformed version record" in out + err


def _world_readable_tmp() -> Path:
    # pytest's tmp_path lives under a 0700 directory another user cannot enter.
    d = Path(tempfile.mkdtemp(prefix="opkg-perm-"))
    d.chmod(0o755)
    return d


def _as_other_user() -> list[str]:
    """A command prefix that runs a child the file permissions apply to. Root bypasses
    permission bits, so as root the child runs as 'nobody' (setpriv drops every capability);
    otherwise the child is us, and the test makes the directories read-only instead."""
    if os.geteuid() != 0:
        return []
    if not shutil.which("setpriv"):
        pytest.skip("running as root without setpriv: cannot run a child that lacks permission")
    return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


def test_no_permission_is_a_clear_error_and_writes_nothing(bundles):
    base = _world_readable_tmp()
    try:
        registry = base / "registry"
        store = Store(registry)
        publish_bundles(store, [bundles(name="layernorm", subdir="x")])
        bundle = base / "add_custom.opkg.tgz"
        shutil.copy(bundles(), bundle)
        for p in [registry, *registry.rglob("*")]:
            p.chmod(0o755 if p.is_dir() else 0o644)
        prefix = _as_other_user()
        if not prefix:
            for p in [registry, *registry.rglob("*")]:
                if p.is_dir():
                    p.chmod(0o555)
        bundle.chmod(0o644)
        env = child_env(HOME=str(base))

        # The child must be able to run Python at all as that user: an interpreter under a
        # private home directory (pyenv in /root) cannot, and then nothing here can be tested.
        runs = subprocess.run([*prefix, sys.executable, "-c", "pass"], env=env,
                              capture_output=True)
        if runs.returncode != 0:
            pytest.skip("this Python cannot run as an unprivileged user: "
                        + runs.stderr.decode(errors="replace").strip()[:200])
        # Sanity: the child really cannot write there (else this test could not fail).
        probe = subprocess.run([*prefix, sys.executable, "-c",
                                f"open({str(registry / 'probe')!r}, 'w')"],
                               env=env, capture_output=True)
        assert probe.returncode != 0 and b"Permission denied" in probe.stderr

        before = snapshot(registry)
        proc = subprocess.run([*prefix, sys.executable, "-m", "opkg", "publish", "--bundle",
                               str(bundle), "--registry", str(registry)], env=env,
                              capture_output=True, text=True, cwd=base)
        assert proc.returncode == 1, proc.stderr
        assert f"cannot write to registry {registry}: permission denied" in proc.stderr
        assert "hint:" in proc.stderr and "Traceback" not in proc.stderr
        assert snapshot(registry) == before

        # Reading needs no write access: search still works for that user.
        proc = subprocess.run([*prefix, sys.executable, "-m", "opkg", "search", "--registry",
                               str(registry)], env=env, capture_output=True,
                              text=True, cwd=base)
        assert proc.returncode == 0, proc.stderr
        assert "layernorm" in proc.stdout
    finally:
        for p in [base, *base.rglob("*")]:
            if p.is_dir():
                p.chmod(0o755)
        shutil.rmtree(base)


def test_child_env_imports_this_checkout():
    out = subprocess.run([sys.executable, "-c", "import opkg; print(opkg.__file__)"],
                         env=child_env(), capture_output=True, text=True).stdout
    assert out.startswith(str(REPO))
