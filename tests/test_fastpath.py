"""The null-build fast path: reused only when nothing a build depends on changed.

End-to-end tests build the real add_custom example once per test (one SoC) and then change one
thing at a time. Whether the fast path answered is visible on disk: every full build rewrites
out/.opkg/plan.json (a new inode), the fast path never touches it. A g++ wrapper logs compiles.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from opkg.build import fastpath
from opkg.core import statsig

from tests.conftest import compiles as logged_compiles

SOC = "Ascend910B1"


def compiles(log: Path) -> list[str]:
    """Sources compiled since the last call (the log is cleared)."""
    names = logged_compiles(log)
    log.unlink(missing_ok=True)
    return names


class Ws:
    def __init__(self, root: Path):
        self.root = root
        self.plan = root / "out/.opkg/plan.json"

    def build(self, *args, check=0, env=None):
        r = subprocess.run([sys.executable, "-m", "opkg", "build", "//...", "--soc", SOC,
                            "--json", *args], cwd=self.root, capture_output=True, text=True,
                           timeout=900, env=env)
        assert r.returncode == check, r.stdout + r.stderr
        return json.loads(r.stdout) if r.stdout.strip().startswith("{") else None

    def fast(self, *args, env=None) -> bool:
        """Build; True when the fast path answered (the plan was not rewritten)."""
        before = _ident(self.plan)
        self.last = self.build(*args, env=env)
        assert self.last["ok"]
        return _ident(self.plan) == before

    def settle(self):
        """A full build right after writing files records them as racy (content-checked);
        wait out the racy window so the next record holds plain stat signatures."""
        time.sleep(statsig.FINE_WINDOW_NS / 1e9 * 2)


def _ident(path: Path):
    st = path.stat()
    return st.st_ino, st.st_mtime_ns


@pytest.fixture
def ws(workspace, cxx_log, warm_cache):
    # the first build sets the scene: restored from a build of the same sources (warm_cache)
    workspace.copy_package("add_custom")
    w = Ws(workspace.root)
    w.settle()
    w.build()
    compiles(cxx_log)
    return w


def test_null_build_is_answered_without_scons_and_reports_the_same_result(ws, cxx_log):
    first = ws.build()                       # the record of the first build may be racy
    assert ws.fast()
    again = ws.build()
    assert again["targets"] == first["targets"] and again["ran"] == 0
    assert compiles(cxx_log) == []


def test_new_deleted_and_renamed_files_are_seen(ws, cxx_log):
    pkg = ws.root / "packages/add_custom"
    assert ws.fast()
    # a new header that shadows an include found further down the include path
    kernel = pkg / "op_kernel/add_custom.cpp"
    (pkg / "op_host/bench_consts.h").write_text("#pragma once\n#define BENCH_K 1\n")
    kernel.write_text('#include "bench_consts.h"\n' + kernel.read_text())
    ws.build()
    compiles(cxx_log)
    ws.settle()
    ws.build()
    assert ws.fast()
    (pkg / "bench_consts.h").write_text("#pragma once\n#define BENCH_K 2\n")
    assert not ws.fast()
    assert sorted(compiles(cxx_log)) == ["add_custom.cpp", "add_custom.cpp"]
    ws.settle()
    ws.build()
    # deleted: the shadowing header goes, the original is found again
    (pkg / "bench_consts.h").unlink()
    assert not ws.fast()
    # the objects of that state are still in the build cache
    assert ws.last["cached"] >= 2 and compiles(cxx_log) == []
    ws.settle()
    ws.build()
    # renamed: an unrelated file changes name; nothing to compile, but it must be looked at
    (pkg / "NOTES").write_text("x")
    assert not ws.fast()
    ws.settle()
    ws.build()
    assert ws.fast()
    (pkg / "NOTES").rename(pkg / "NOTES2")
    assert not ws.fast()
    assert compiles(cxx_log) == []


def test_changed_manifest_reverifies(ws, cxx_log):
    manifest = ws.root / "packages/add_custom/opkg.yaml"
    ws.settle()
    ws.build()
    assert ws.fast()
    manifest.write_text(manifest.read_text().replace("shapes: {x: [32], y: [32]}",
                                                     "shapes: {x: [64], y: [64]}"))
    result = ws.build()
    assert result["ran"] > 0 and compiles(cxx_log) == []     # verification only


def test_toolchain_and_environment_changes_are_seen(ws, cxx_log, tmp_path):
    ws.build()
    assert ws.fast()
    # an unrelated variable does not matter
    env = dict(os.environ, SOME_UNRELATED_VARIABLE="1")
    assert ws.fast(env=env)
    # a variable opkg reads does
    assert not ws.fast(env=dict(os.environ, OPKG_SOMETHING="1"))
    # the same compiler under another path is another toolchain identity: everything rebuilds
    other = tmp_path / "bin" / "g++-other"
    other.write_text((tmp_path / "bin" / "g++-logged").read_text())
    other.chmod(0o755)
    ws.settle()
    assert not ws.fast(env=dict(os.environ, CXX=str(other)))
    assert len(compiles(cxx_log)) >= 5
    # the compiler binary itself changing (an upgrade in place)
    ws.build(env=dict(os.environ, CXX=str(other)))
    assert ws.fast(env=dict(os.environ, CXX=str(other)))
    other.write_text(other.read_text() + "# upgraded\n")
    assert not ws.fast(env=dict(os.environ, CXX=str(other)))


def test_deleted_or_modified_outputs_are_seen(ws, cxx_log):
    ws.build()
    assert ws.fast()
    lib = ws.root / "out/sim/add_custom" / SOC / "float16/libkernel.so"
    lib.unlink()
    assert not ws.fast()
    assert lib.is_file()
    ws.settle()
    ws.build()
    assert ws.fast()
    report = ws.root / "out/sim/add_custom" / SOC / "float32/verification.json"
    report.write_text(report.read_text() + " ")
    assert not ws.fast()
    bundle = next((ws.root / "out/bundles").iterdir())
    ws.settle()
    ws.build()
    assert ws.fast()
    bundle.unlink()
    assert not ws.fast()
    assert bundle.is_file()


def test_a_failed_build_leaves_no_record(ws, cxx_log):
    ws.build()
    assert ws.fast()
    kernel = ws.root / "packages/add_custom/op_kernel/add_custom.cpp"
    good = kernel.read_text()
    kernel.write_text(good + "\nthis is not C++;\n")
    ws.build(check=1)
    assert not list((ws.root / "out/.opkg/fastpath").iterdir())
    kernel.write_text(good)
    ws.build()


def test_a_failed_verification_is_answered_again_without_scons_and_without_a_bundle(ws, cxx_log):
    """Every step ran, and a variant's verification failed: the same inputs give the same
    reports, so the next build answers the same failure from the record (no bundle), and an
    edit that fixes the kernel is seen."""
    kernel = ws.root / "packages/add_custom/op_kernel/add_custom.cpp"
    good = kernel.read_text()
    kernel.write_text(good.replace("Add(zLocal", "Sub(zLocal", 1))
    first = ws.build(check=1)
    bundle = ws.root / "out/bundles" / f"add_custom-1.0.0-{SOC}-sim.opkg.tgz"
    assert not bundle.exists()
    ws.settle()
    before = _ident(ws.plan)
    again = ws.build(check=1)
    assert _ident(ws.plan) == before                 # answered by the fast path
    assert again["ran"] == 0 and again["cached"] == 0 and not bundle.exists()
    assert [t["passed"] for t in again["targets"]] == [t["passed"] for t in first["targets"]]
    assert again["targets"][0]["variants"] == first["targets"][0]["variants"]
    kernel.write_text(good)
    assert not ws.fast()
    assert bundle.is_file()


def test_clock_skew_future_timestamps_are_content_checked(ws, cxx_log):
    kernel = ws.root / "packages/add_custom/op_kernel/add_custom.cpp"
    future = time.time_ns() + 3600 * 10**9
    os.utime(kernel, ns=(future, future))
    ws.build()
    assert ws.fast()          # still usable: the file's content is checked instead
    rec = json.loads(next((ws.root / "out/.opkg/fastpath").iterdir()).read_text())
    assert str(kernel) in rec["inputs"]["racy"]
    # an edit that keeps the (future) mtime and size
    text = kernel.read_text()
    kernel.write_text(text.replace("Add(zLocal", "Sub(zLocal", 1))
    os.utime(kernel, ns=(future, future))
    r = ws.build(check=1)
    assert not r["ok"]


# -- racy timestamps, at the level of snapshots ------------------------------------------------

def _snap_ws(workspace):
    workspace.operator("one")
    return workspace.load()


def test_same_tick_edit_is_caught_by_the_racy_rule(workspace):
    """A write in the same timestamp tick as the snapshot can leave every stat field equal.
    Simulated: the new snapshot's stat of an edited file is made equal to the old one."""
    ws = _snap_ws(workspace)
    src = workspace.root / "packages/one/op_kernel/op.cpp"
    # a snapshot in the same tick as the file's last write: racy
    old = fastpath.snapshot(ws, now_ns=src.stat().st_mtime_ns)
    assert str(src) in old["racy"]
    src.write_text(src.read_text() + "// edited\n")
    new = fastpath.snapshot(ws)
    new["files"][str(src)] = old["files"][str(src)]
    assert fastpath.difference(old, new) is not None
    assert "same timestamp" in fastpath.difference(old, new)


def test_without_the_racy_rule_a_same_tick_edit_would_be_missed(workspace):
    """The control for the test above: an entry recorded as settled is trusted on its stat."""
    ws = _snap_ws(workspace)
    src = workspace.root / "packages/one/op_kernel/op.cpp"
    # a snapshot taken well after the last write (ctime cannot be set back, so move the clock)
    old = fastpath.snapshot(ws, now_ns=src.stat().st_ctime_ns + 10 * 10**9)
    assert str(src) not in old["racy"]
    src.write_text(src.read_text() + " ")
    new = fastpath.snapshot(ws)
    assert fastpath.difference(old, new) is not None            # stat differs: seen
    new["files"][str(src)] = old["files"][str(src)]
    assert fastpath.difference(old, new) is None                # only the stat was looked at


def test_directory_listing_changes_in_the_same_tick_are_caught(workspace):
    ws = _snap_ws(workspace)
    d = workspace.root / "packages/one/op_kernel"
    old = fastpath.snapshot(ws, now_ns=d.stat().st_mtime_ns)
    assert str(d) in old["racy"]
    (d / "new.h").write_text("")
    new = fastpath.snapshot(ws)
    del new["files"][str(d / "new.h")]
    new["files"][str(d)] = old["files"][str(d)]
    assert fastpath.difference(old, new) is not None


def test_request_key_separates_requests():
    a = fastpath.request_key(["//..."], Path("/w"), socs=None, bundle=True)
    assert a == fastpath.request_key(["//..."], Path("/w"), bundle=True, socs=None)
    assert a != fastpath.request_key(["//..."], Path("/w"), socs=None, bundle=False)
    assert a != fastpath.request_key(["//..."], Path("/w/packages"), socs=None, bundle=True)
    assert a != fastpath.request_key(["//packages/x"], Path("/w"), socs=None, bundle=True)


def test_cann_places_match_discovery(tmp_path):
    from opkg.toolchains import discovery

    assert fastpath.TOOLKIT_ENV_VARS == discovery.TOOLKIT_ENV_VARS
    for env in ({}, {"HOME": "/home/u"}, {"OPKG_ASCEND_ROOTS": f"/a{os.pathsep}/b"},
                {"OPKG_ASCEND_ROOTS": ""}):
        assert fastpath.ascend_roots(env) == discovery.ascend_roots(env)


def test_a_visible_cann_installation_disables_the_fast_path(workspace, monkeypatch, tmp_path):
    ws = _snap_ws(workspace)
    monkeypatch.setenv("OPKG_ASCEND_ROOTS", str(tmp_path / "none"))
    monkeypatch.setenv("OPKG_ASCEND_INSTALL_INFO", "")
    for var in fastpath.TOOLKIT_ENV_VARS:
        monkeypatch.delenv(var, raising=False)
    assert fastpath.snapshot(ws) is not None
    (tmp_path / "none").mkdir()
    assert fastpath.snapshot(ws) is None


def test_directory_links_are_not_walked_and_outward_ones_disable_the_fast_path(workspace,
                                                                              tmp_path):
    ws = _snap_ws(workspace)
    pkg = workspace.root / "packages/one"
    (pkg / "loop").symlink_to(pkg)                     # a cycle: its target is walked anyway
    (pkg / "header.h").symlink_to(pkg / "opkg.yaml")   # a link to a file is followed
    snap = fastpath.snapshot(ws)
    assert not [p for p in snap["files"] if "/loop/" in p]
    assert snap["outward_links"] == []
    assert fastpath.difference(snap, fastpath.snapshot(ws)) is None
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "extra.h").write_text("#define A 1\n")
    (pkg / "linked").symlink_to(outside)               # out of the package root: not walked
    snap = fastpath.snapshot(ws)
    assert str(pkg / "linked" / "extra.h") not in snap["files"]
    assert snap["outward_links"] == [str(pkg / "linked")]
    # what is behind it cannot be proven unchanged, so the fast path never answers
    assert "links to a directory outside its tree" in fastpath.difference(snap, snap)


def test_a_link_into_a_walked_external_repository_keeps_the_fast_path(workspace, tmp_path):
    """An operator imported from an ops repository links its kernel tree into the repository's
    checkout, which the workspace names as a path repository: that tree is walked, so the
    link is covered, and an edit behind it is seen."""
    repo = tmp_path / "ops_repo"
    (repo / "ops" / "one" / "op_kernel").mkdir(parents=True)
    kernel = repo / "ops" / "one" / "op_kernel" / "one.cpp"
    kernel.write_text("// kernel\n")
    workspace.operator("one")
    ws_file = workspace.root / "opkg-workspace.yaml"
    ws_file.write_text(ws_file.read_text() + f"repositories:\n  ops:\n    path: {repo}\n")
    ws = workspace.load()
    (workspace.root / "packages/one/kernel_tree").symlink_to(repo / "ops" / "one" / "op_kernel")
    snap = fastpath.snapshot(ws)
    assert snap["outward_links"] == []
    assert str(kernel) in snap["files"]
    assert fastpath.difference(snap, fastpath.snapshot(ws)) is None
    kernel.write_text("// kernel, edited\n")
    assert str(kernel) in fastpath.difference(snap, fastpath.snapshot(ws))


@pytest.mark.parametrize("damage", [
    lambda rec: [rec],                                      # not an object
    lambda rec: {**rec, "inputs": 5},                       # a field of the wrong type
    lambda rec: {k: v for k, v in rec.items() if k != "result"},   # a field missing
])
def test_a_malformed_record_is_evicted_with_one_warning(ws, damage):
    """out/ may come from elsewhere: a fast-path record of the wrong shape is removed with one
    warning and the build goes through SCons, never a traceback."""
    ws.build()
    assert ws.fast()
    [record] = (ws.root / "out/.opkg/fastpath").iterdir()
    record.write_text(json.dumps(damage(json.loads(record.read_text()))))
    r = subprocess.run([sys.executable, "-m", "opkg", "build", "//...", "--soc", SOC],
                       cwd=ws.root, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    assert r.stderr.count("is not a fast-path record") == 1, r.stderr
    assert ws.fast()          # a good record was written again
