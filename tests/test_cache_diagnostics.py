"""A step restored from the build cache shows the compiler warnings its fresh run showed (as
ccache and Bazel replay them): a warm build, another checkout sharing the cache, `--json`. Damaged
stored diagnostics are a miss (the step runs and warns), never a silently lost warning; pruning
and eviction take the diagnostics with their entry."""

from __future__ import annotations

import json
import shutil

import pytest

from opkg.build import cache
from tests.conftest import WorkspaceFactory, opkg
from tests.test_cache import _entry

pytestmark = pytest.mark.slow

# g++ prints `<file>:<line>:<col>: warning: #warning ...` for it: a compiler warning of the
# package's own source, the same on every compile
HOST = '// host\n#warning "tiling: the block count is a guess"\n'
KERNEL_WARNING = "#warning \"kernel: unrolled by hand\"\n"


def _package(ws: WorkspaceFactory) -> None:
    ws.operator("warn_op", op_type="WarnOp")
    ws.write("packages/warn_op/op_host/op.cpp", HOST)
    kernel = ws.root / "packages/warn_op/op_kernel/op.cpp"
    kernel.write_text(KERNEL_WARNING + kernel.read_text())


def _build(ws: WorkspaceFactory) -> dict:
    # the minimal kernel computes nothing: its verification fails the same way every time,
    # which is not what is tested here
    r = opkg("build", "//...", "--json", cwd=ws.root)
    assert r.returncode in (0, 1) and r.stdout.startswith("{"), r.stdout + r.stderr
    return {"result": json.loads(r.stdout), "stderr": r.stderr}


def _own(result: dict, ws: WorkspaceFactory) -> list[str]:
    """The package's own warnings, paths relative to the workspace (--json gives them
    absolute)."""
    return sorted(w["message"].replace(f"{ws.root}/", "") for w in result["warnings"]
                  if "#warning" in w["message"])


def _cache(tmp_path, seed, monkeypatch) -> None:
    """The test's own cache, holding the sim runtime objects (no diagnostics of their own)."""
    shutil.copytree(seed, tmp_path / "cache" / "scons")
    monkeypatch.setenv("OPKG_CACHE_DIR", str(tmp_path / "cache"))


def test_a_restored_step_shows_its_compiler_warnings_again(tmp_path, monkeypatch,
                                                           sim_runtime_seed):
    _cache(tmp_path, sim_runtime_seed, monkeypatch)
    ws = WorkspaceFactory(tmp_path / "ws")
    _package(ws)
    cold = _build(ws)
    fresh = _own(cold["result"], ws)
    # the host source's warning (its tiling library) and the kernel's, once per dtype variant
    assert any("packages/warn_op/op_host/op.cpp:2:" in m and "the block count" in m
               for m in fresh), cold["result"]["warnings"]
    assert sum("packages/warn_op/op_kernel/op.cpp:1:" in m for m in fresh) == 2, fresh
    assert not any(w.get("cached") for w in cold["result"]["warnings"])

    # warm: everything restored, every warning shown again, marked as replayed in --json
    shutil.rmtree(ws.root / "out")
    warm = _build(ws)
    assert warm["result"]["cached"] > 0 and warm["result"]["ran"] == 0, warm["result"]
    assert _own(warm["result"], ws) == fresh
    assert all(w.get("cached") for w in warm["result"]["warnings"] if "#warning" in w["message"])
    assert "the block count is a guess" in warm["stderr"]

    # another checkout sharing the cache: its own paths, not the first checkout's
    other = WorkspaceFactory(tmp_path / "elsewhere" / "ws")
    _package(other)
    elsewhere = _build(other)
    assert elsewhere["result"]["ran"] == 0 and _own(elsewhere["result"], other) == fresh
    assert not any(str(ws.root) in w["message"] for w in elsewhere["result"]["warnings"])

    # an up-to-date build runs and restores nothing: it shows nothing again (as before)
    assert _own(_build(ws)["result"], ws) == []


def test_damaged_diagnostics_are_a_miss_and_the_step_warns_again(tmp_path, monkeypatch,
                                                                 sim_runtime_seed):
    _cache(tmp_path, sim_runtime_seed, monkeypatch)
    ws = WorkspaceFactory(tmp_path / "ws")
    _package(ws)
    fresh = _own(_build(ws)["result"], ws)
    stored = sorted((tmp_path / "cache" / "scons").glob(f"*/*{cache.DIAG_SUFFIX}"))
    assert len(stored) == 3, stored          # the host library and the two kernel variants
    damaged = stored[0]
    data = bytearray(damaged.read_bytes())
    data[data.index(b"#warning")] ^= 0x20    # one flipped bit in the text
    damaged.write_bytes(bytes(data))

    shutil.rmtree(ws.root / "out")
    again = _build(ws)
    assert _own(again["result"], ws) == fresh
    messages = [w["message"] for w in again["result"]["warnings"]]
    assert [m for m in messages if "damaged build cache entry" in m
            and str(damaged.with_suffix("")) in m and "diagnostics" in m], messages
    assert again["result"]["ran"] >= 1      # that step ran again; the others restored


def test_diagnostics_are_part_of_their_entry(tmp_path):
    root = tmp_path / "c"
    old = _entry(root, "aa01", 1000, age=3000)
    new = _entry(root, "bb02", 1000, age=10)
    cache.write_diagnostics(old, [{"warning": "a.cpp:1:1: warning: x"}])
    assert cache.read_diagnostics(old) == ([{"warning": "a.cpp:1:1: warning: x"}], None)
    assert cache.read_diagnostics(new) == ([], None)
    # not an entry of its own
    assert cache.stats(root)["entries"] == 2
    # a truncated file is damage, not "no diagnostics"
    side = tmp_path / "c/scons/AA/aa01.diag"
    whole = side.read_bytes()
    side.write_bytes(whole[:-5])
    assert cache.read_diagnostics(old)[1]
    side.write_bytes(whole)
    # pruning the entry removes its diagnostics; nothing is left behind
    assert cache.prune(root, 1500)["removed"] == 1
    assert sorted(p.name for p in (root / "scons").rglob("*") if p.is_file()) == ["bb02"]
    cache.write_diagnostics(new, [])
    cache.evict(new)
    assert not any(p.is_file() for p in (root / "scons").rglob("*"))
