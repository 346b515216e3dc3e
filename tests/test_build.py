"""End to end through the real pipeline: plan -> SCons -> g++ -> sim -> NumPy -> bundles.

Each test builds the real `add_custom` example in a fresh workspace, for one SoC to keep the
suite quick. Tests whose first build only sets the scene take `warm_cache` (tests/conftest.py):
that build restores what a build of the same sources made once per run; the cold build and
what a build pushes to its cache are tested with an empty one. A wrapper around g++ logs every
compiler invocation, so tests can say exactly what was (not) recompiled.
"""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

import pytest

from tests.conftest import Checkpoint, compiles, marked_processes, opkg, start_opkg

SOC = "Ascend910B1"


@pytest.fixture
def add_ws(workspace, cxx_log):
    workspace.copy_package("add_custom")
    return workspace


def test_build_verifies_and_bundles(add_ws, cxx_log):
    r = opkg("build", "packages/add_custom", "--soc", SOC, "--json", cwd=add_ws.root, check=0)
    result = json.loads(r.stdout)
    assert result["ok"]
    [target] = result["targets"]
    assert target["passed"] and target["soc"] == SOC and target["toolchain"] == "sim"
    assert set(target["variants"]) == {"float16", "float32"}
    bundle = Path(target["bundle"])
    assert bundle.name == f"add_custom-1.0.0-{SOC}-sim.opkg.tgz" and bundle.is_file()
    from opkg.core.bundle import read_metadata

    meta = read_metadata(bundle)
    assert meta["verification"]["passed"] and meta["verification"]["failed"] == 0
    assert {v["name"] for v in meta["variants"]} == {"float16", "float32"}
    assert meta["provenance"]["source_digest"].startswith("sha256:")
    report = json.loads((add_ws.root / "out/sim/add_custom" / SOC / "float16" /
                         "verification.json").read_text())
    assert report["passed"] and report["cases"] == len(report["results"])
    assert all(c["run"]["block_dim"] >= 1 for c in report["results"])
    # nothing is written into the package
    assert not any(p.name.endswith((".o", ".so", ".json")) for p in
                   (add_ws.root / "packages").rglob("*"))


def test_null_build_does_nothing_and_header_touch_rebuilds_only_dependents(
        add_ws, warm_cache, cxx_log):
    opkg("build", "//...", "--soc", SOC, cwd=add_ws.root, check=0)
    cxx_log.unlink()
    r = opkg("build", "//...", "--soc", SOC, "--json", cwd=add_ws.root, check=0)
    assert json.loads(r.stdout)["ran"] == 0 and compiles(cxx_log) == []
    # the tiling-data header is used by the host code and (force-included) by each kernel
    header = add_ws.root / "packages/add_custom/op_host/add_custom_tiling.h"
    header.write_text(header.read_text() + "\n// touched\n")
    opkg("build", "//...", "--soc", SOC, cwd=add_ws.root, check=0)
    compiled = compiles(cxx_log)
    assert "add_custom.cpp" in compiled
    cxx_log.unlink()
    # a kernel-only change recompiles the kernel variants, not the host library
    kernel = add_ws.root / "packages/add_custom/op_kernel/add_custom.cpp"
    kernel.write_text(kernel.read_text() + "\n// touched\n")
    opkg("build", "//...", "--soc", SOC, cwd=add_ws.root, check=0)
    compiled = compiles(cxx_log)
    assert sorted(compiled) == ["add_custom.cpp", "add_custom.cpp"], compiled  # 2 variants
    assert "host_entry.cpp" not in compiled


def test_helper_library_header_change_rebuilds_dependents(add_ws, warm_cache, cxx_log):
    add_ws.library("common")
    header = add_ws.root / "packages/common/include/common.h"
    manifest = add_ws.root / "packages/add_custom/opkg.yaml"
    manifest.write_text(manifest.read_text().replace("deps: []", "deps: [//packages/common]")
                        if "deps: []" in manifest.read_text()
                        else manifest.read_text() + "deps: [//packages/common]\n")
    kernel = add_ws.root / "packages/add_custom/op_kernel/add_custom.cpp"
    kernel.write_text('#include "common.h"\n' + kernel.read_text())
    opkg("build", "//packages/add_custom", "--soc", SOC, cwd=add_ws.root, check=0)
    cxx_log.unlink()
    header.write_text("#pragma once\n#define COMMON_CHANGED 1\n")
    opkg("build", "//packages/add_custom", "--soc", SOC, cwd=add_ws.root, check=0)
    assert sorted(compiles(cxx_log)) == ["add_custom.cpp", "add_custom.cpp"]


def test_cache_restores_outputs_without_compiling(add_ws, cxx_log):
    opkg("build", "//...", "--soc", SOC, cwd=add_ws.root, check=0)
    bundle = next((add_ws.root / "out/bundles").iterdir())
    first = bundle.read_bytes()
    cxx_log.unlink()
    opkg("clean", cwd=add_ws.root, check=0)
    assert not (add_ws.root / "out").exists()
    r = opkg("build", "//...", "--soc", SOC, "--json", cwd=add_ws.root, check=0)
    assert compiles(cxx_log) == []
    assert json.loads(r.stdout)["cached"] > 0
    assert bundle.read_bytes() == first


def test_bundles_are_reproducible_across_clean_builds(add_ws, warm_cache, tmp_path, monkeypatch):
    opkg("build", "//...", "--soc", SOC, cwd=add_ws.root, check=0)
    bundle = next((add_ws.root / "out/bundles").iterdir())
    first = bundle.read_bytes()
    monkeypatch.setenv("OPKG_CACHE_DIR", str(tmp_path / "other-cache"))
    opkg("clean", cwd=add_ws.root, check=0)
    opkg("build", "//...", "--soc", SOC, cwd=add_ws.root, check=0)
    assert bundle.read_bytes() == first


def test_toolchain_change_never_reuses_the_cache(
        add_ws, warm_cache, cxx_log, monkeypatch, tmp_path):
    opkg("build", "//...", "--soc", SOC, cwd=add_ws.root, check=0)
    cxx_log.unlink()
    opkg("clean", cwd=add_ws.root, check=0)
    # same compiler behind a different path: a different toolchain identity
    other = tmp_path / "bin" / "g++-other"
    other.write_text((tmp_path / "bin" / "g++-logged").read_text())
    other.chmod(0o755)
    monkeypatch.setenv("CXX", str(other))
    opkg("build", "//...", "--soc", SOC, cwd=add_ws.root, check=0)
    assert len(compiles(cxx_log)) >= 5


def test_broken_kernel_fails_with_case_variant_and_first_wrong_element(add_ws, warm_cache):
    kernel = add_ws.root / "packages/add_custom/op_kernel/add_custom.cpp"
    text = kernel.read_text()
    assert "Add(zLocal" in text
    kernel.write_text(text.replace("Add(zLocal", "Sub(zLocal", 1))
    r = opkg("build", "//...", "--soc", SOC, cwd=add_ws.root)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "FAIL" in r.stdout
    assert "float16" in r.stdout and "float32" in r.stdout
    assert "z[" in r.stdout and "expected" in r.stdout
    assert "no bundle for //packages/add_custom Ascend910B1: not every variant verified" in r.stdout
    assert not list((add_ws.root / "out/bundles").glob("*.tgz"))
    report = json.loads((add_ws.root / "out/sim/add_custom" / SOC / "float32" /
                         "verification.json").read_text())
    assert not report["passed"]
    first = report["results"][0]["outputs"]["z"]["first_mismatch"]
    assert first["index"] and first["actual"] != first["expected"]


def test_a_failed_build_shows_no_stale_results_and_removes_the_stale_bundle(add_ws, warm_cache):
    opkg("build", "//...", "--soc", SOC, cwd=add_ws.root, check=0)
    bundle = next((add_ws.root / "out/bundles").iterdir())
    kernel = add_ws.root / "packages/add_custom/op_kernel/add_custom.cpp"
    kernel.write_text(kernel.read_text().replace(";", "", 1))
    r = opkg("build", "//...", "--soc", SOC, "--json", cwd=add_ws.root)
    assert r.returncode == 1
    [target] = json.loads(r.stdout)["targets"]
    assert target["passed"] is False and target["bundle"] is None
    # no result of an earlier build shown: every declared variant NOT RUN, with the step
    assert {v: s["status"] for v, s in target["variants"].items()} == {
        "float16": "NOT RUN", "float32": "NOT RUN"}
    assert all(s["why"].startswith("compile add_custom kernel") and s["why"].endswith(" failed")
               for s in target["variants"].values())
    assert not bundle.exists()


def test_compile_error_names_package_and_file_without_scons_noise(add_ws, warm_cache):
    kernel = add_ws.root / "packages/add_custom/op_kernel/add_custom.cpp"
    kernel.write_text(kernel.read_text() + "\nthis is not C++;\n")
    r = opkg("build", "//...", "--soc", SOC, "--keep-going", cwd=add_ws.root)
    assert r.returncode == 1
    assert "FAILED compile add_custom kernel" in r.stderr
    assert "//packages/add_custom" in r.stderr
    assert "packages/add_custom/op_kernel/add_custom.cpp:" in r.stderr
    assert "scons:" not in r.stderr and "Traceback" not in r.stderr


def test_ub_overflow_is_a_clear_verification_error(add_ws, warm_cache):
    kernel = add_ws.root / "packages/add_custom/op_kernel/add_custom.cpp"
    text = kernel.read_text()
    import re

    # ask for far more UB than any SoC has: 192 KiB on 910B
    text, n = re.subn(r"InitBuffer\((\w+), BUFFER_NUM, ([^;]+)\);",
                      r"InitBuffer(\1, BUFFER_NUM, (\2) * 1024);", text, count=1)
    assert n == 1
    kernel.write_text(text)
    r = opkg("test", "//...", "--soc", SOC, cwd=add_ws.root)
    assert r.returncode == 1
    assert "UB" in r.stdout and "add_custom.cpp:" in r.stdout


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupt_leaves_no_partial_outputs_and_no_processes(add_ws, sig, tmp_path, marker):
    compiling = Checkpoint(tmp_path, "exec")      # SCons has started a compiler
    proc = start_opkg("build", "//...", "--soc", SOC, cwd=add_ws.root, marker=marker,
                      checkpoint=compiling)
    compiling.reached(proc)
    proc.send_signal(sig)
    compiling.release(proc)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    leftovers = [p for p in (add_ws.root / "out").rglob("*") if ".tmp-" in p.name]
    assert leftovers == []
    # SCons and the compilers it started are gone too, not finishing in the background
    assert marked_processes(marker) == []
    # the next build completes normally
    opkg("build", "//...", "--soc", SOC, cwd=add_ws.root, check=0)


def _build_editing_the_kernel_while_it_compiles(ws, tmp_path, marker) -> tuple[Path, str, str]:
    """A build during which the kernel source is edited while its compiler runs; returns the
    kernel, its content before the edit and the build's output. (The kernel is first given
    content no cache holds, so that its compiles run.)"""
    kernel = ws.root / "packages/add_custom/op_kernel/add_custom.cpp"
    before = kernel.read_text() + "\nstatic const int kNotInAnyCache = 1;\n"
    kernel.write_text(before)
    compiling = Checkpoint(tmp_path, "exec")
    proc = start_opkg("build", "//...", "--soc", SOC, cwd=ws.root, marker=marker,
                      checkpoint=compiling)
    compiling.reached(proc)
    # replaced whole, as editors save: the compiler reads either version, never half of one
    edited = kernel.with_name("edited.tmp")
    edited.write_text(before + "static const int kEditedWhileCompiling = 2;\n")
    edited.replace(kernel)
    compiling.release(proc)
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, out + err
    return kernel, before, out + err


def test_a_source_edited_while_its_step_runs_is_compiled_again_when_the_edit_is_undone(
        add_ws, warm_cache, cxx_log, tmp_path, marker):
    kernel, before, out = _build_editing_the_kernel_while_it_compiles(add_ws, tmp_path, marker)
    assert "add_custom.cpp changed while the step that reads it ran" in out
    kernel.write_text(before)     # the edit undone: SCons' record must not vouch for the object
    cxx_log.unlink()
    opkg("build", "//...", "--soc", SOC, cwd=add_ws.root, check=0)
    assert "add_custom.cpp" in compiles(cxx_log)


def test_outputs_of_a_step_whose_source_changed_while_it_ran_are_not_cached(
        add_ws, warm_cache, cxx_log, tmp_path, marker):
    kernel, before, _ = _build_editing_the_kernel_while_it_compiles(add_ws, tmp_path, marker)
    kernel.write_text(before)
    opkg("clean", cwd=add_ws.root, check=0)
    cxx_log.unlink()
    # an entry keyed on the source before the edit could hold an object of the edited one
    opkg("build", "//...", "--soc", SOC, cwd=add_ws.root, check=0)
    assert "add_custom.cpp" in compiles(cxx_log)


def test_temporaries_of_killed_steps_and_restores_are_removed(tmp_path):
    from opkg.build.engine import remove_partial

    out = tmp_path / "out"
    (out / "add").mkdir(parents=True)
    leftovers = ["libadd.so.tmp-123-4", ".plan.json.tmp-99", "add.opkg.tgz.restore-4242"]
    kept = ["libadd.so", "add.opkg.tgz", "restore-notes.txt", "x.restore-", "x.tmp-y"]
    for name in leftovers + kept:
        (out / "add" / name).write_bytes(b"x")
    remove_partial(out)
    assert sorted(p.name for p in (out / "add").iterdir()) == sorted(kept)


def test_a_hanging_golden_times_out_instead_of_hanging_the_build(add_ws, warm_cache):
    golden = add_ws.root / "packages/add_custom/golden.py"
    golden.write_text("import time\n" + golden.read_text().replace(
        "def add_custom(", "def add_custom(*args, **kwargs):\n    time.sleep(600)\n\n\n"
        "def _unused(", 1))
    manifest = add_ws.root / "packages/add_custom/opkg.yaml"
    manifest.write_text(manifest.read_text().replace("  seed:", "  timeout: 3\n  seed:", 1))
    started = time.monotonic()
    r = opkg("test", "//...", "--soc", SOC, cwd=add_ws.root)
    assert r.returncode == 1
    assert "timed out after 3 s while running case" in r.stdout
    assert time.monotonic() - started < 300


def test_a_golden_hanging_at_import_is_stopped_before_the_first_case(add_ws, warm_cache,
                                                                      monkeypatch):
    """verify.timeout bounds the cases, from the first one's start; what comes before (Python,
    the golden's imports) has its own bound, OPKG_VERIFY_STARTUP_TIMEOUT, and says so."""
    golden = add_ws.root / "packages/add_custom/golden.py"
    golden.write_text("import time\ntime.sleep(600)\n" + golden.read_text())
    monkeypatch.setenv("OPKG_VERIFY_STARTUP_TIMEOUT", "5")
    started = time.monotonic()
    r = opkg("test", "//...", "--soc", SOC, cwd=add_ws.root)
    assert r.returncode == 1
    assert "timed out after 5 s before its first case" in r.stdout, r.stdout + r.stderr
    assert time.monotonic() - started < 300
    monkeypatch.setenv("OPKG_VERIFY_STARTUP_TIMEOUT", "soon")
    r = opkg("test", "//...", "--soc", SOC, "--no-cache", cwd=add_ws.root)
    assert r.returncode != 0
    assert "OPKG_VERIFY_STARTUP_TIMEOUT='soon' is not a number of seconds" in r.stdout + r.stderr


def _golden_first(ws, lines: str, header: str = "") -> None:
    """Run `lines` (indented) at the start of every golden call."""
    golden = ws.root / "packages/add_custom/golden.py"
    golden.write_text(header + golden.read_text().replace(
        "def add_custom(x, y):\n", "def add_custom(x, y):\n" + lines, 1))


def test_a_golden_printing_without_end_is_stopped_at_the_output_limit(add_ws, warm_cache):
    _golden_first(add_ws, "    while True:\n        sys.stdout.write('x' * 65536)\n",
                  "import sys\n")
    r = opkg("test", "//...", "--soc", SOC, cwd=add_ws.root)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "it printed more than 16 MiB (the verifier's output limit)" in r.stdout, r.stdout
    assert "Traceback" not in r.stderr


def test_a_golden_past_the_memory_limit_says_so(add_ws, warm_cache, monkeypatch):
    monkeypatch.setenv("OPKG_VERIFY_MEMORY_MIB", "600")
    _golden_first(add_ws, "    hog = np.ones(200_000_000)\n")      # 1.6 GB
    r = opkg("test", "//...", "--soc", SOC, cwd=add_ws.root)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "MemoryError" in r.stdout, r.stdout
    assert "the verifier's memory limit is 600 MiB; OPKG_VERIFY_MEMORY_MIB sets it" in r.stdout


def test_a_golden_with_the_wrong_shape_is_blamed_not_the_kernel(add_ws, warm_cache):
    golden = add_ws.root / "packages/add_custom/golden.py"
    text = golden.read_text()
    golden.write_text(text + "\n\n_orig = add_custom\n\n\ndef add_custom(x, y):\n"
                      "    return _orig(x, y)[:1]\n")
    r = opkg("test", "//...", "--soc", SOC, cwd=add_ws.root)
    assert r.returncode == 1
    assert "the golden returned z with shape" in r.stdout and "InferShape gives" in r.stdout


def test_another_checkout_sharing_the_cache_compiles_nothing_and_bundles_identically(
        add_ws, warm_cache, cxx_log, tmp_path):
    import shutil

    other = tmp_path / "elsewhere" / "checkout"
    shutil.copytree(add_ws.root, other)
    opkg("build", "//...", "--soc", SOC, cwd=add_ws.root, check=0)
    cxx_log.unlink()
    r = opkg("build", "//...", "--soc", SOC, "--json", cwd=other, check=0)
    assert compiles(cxx_log) == [] and json.loads(r.stdout)["ran"] == 0
    [a] = (add_ws.root / "out/bundles").iterdir()
    [b] = (other / "out/bundles").iterdir()
    assert a.read_bytes() == b.read_bytes()


def test_sync_check_reverifies_without_recompiling_and_reports_a_hazard(
        add_ws, warm_cache, cxx_log):
    def report():
        return json.loads((add_ws.root / "out/sim/add_custom" / SOC / "float32" /
                           "verification.json").read_text())

    args = ("test", "packages/add_custom", "--soc", SOC)
    opkg(*args, cwd=add_ws.root, check=0)
    assert report()["modes"] == {}
    cxx_log.unlink()
    # a runtime switch: the same libraries, but the unchecked result does not count
    r = opkg(*args, "--sync-check", "--json", cwd=add_ws.root, check=0)
    assert json.loads(r.stdout)["ran"] > 0 and compiles(cxx_log) == []
    assert report()["modes"] == {"sync_check": True} and report()["passed"]
    opkg(*args, cwd=add_ws.root, check=0)
    assert report()["modes"] == {}
    r = opkg(*args, "--lenient-copy", "--sync-check", "--strict-bounds", "--json", cwd=add_ws.root, check=0)
    assert json.loads(r.stdout)["ran"] > 0 and compiles(cxx_log) == []
    assert report()["modes"] == {"lenient_copy": True, "strict_bounds": True, "sync_check": True}
    assert report()["passed"]   # add_custom stays inside its tensors
    # the scalar reads a tensor from a VECIN queue: the queue orders MTE2 before V only
    kernel = add_ws.root / "packages/add_custom/op_kernel/add_custom.cpp"
    text = kernel.read_text()
    deque = "LocalTensor<T> xLocal = inQueueX.DeQue<T>();"
    assert deque in text
    kernel.write_text(text.replace(deque, deque + " (void)xLocal.GetValue(0);", 1))
    line = next(i for i, t in enumerate(kernel.read_text().splitlines(), 1) if "GetValue" in t)
    opkg(*args, cwd=add_ws.root, check=0)
    r = opkg(*args, "--sync-check", cwd=add_ws.root, check=1)
    assert f"op_kernel/add_custom.cpp:{line}: block 0 of" in r.stdout
    assert "read-after-write hazard (--sync-check): LocalTensor::GetValue on PIPE_S" in r.stdout
    assert "HardEvent::MTE2_S" in r.stdout


class _Planted:
    """Unpickling this runs code: it creates a marker file."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (open, (self.marker, "w"))


def test_a_planted_scons_database_in_a_copied_output_directory_is_never_read(
        add_ws, warm_cache, tmp_path):
    """out/ travels as a CI artefact; SCons unpickles out/.opkg/sconsign.dblite. One that was
    not sealed by a build on this machine is removed before SCons starts, with a warning."""
    import pickle

    opkg("build", "packages/add_custom", "--soc", SOC, cwd=add_ws.root, check=0)
    db = add_ws.root / "out" / ".opkg" / "sconsign.dblite"
    assert db.is_file() and db.with_name(db.name + ".seal").is_file()
    marker = tmp_path / "owned"
    db.write_bytes(pickle.dumps({"x": _Planted(marker)}, protocol=2))
    # the fast path would answer without SCons: a source edit sends the build to SCons
    golden = add_ws.root / "packages/add_custom/golden.py"
    golden.write_text(golden.read_text() + "\n# edited\n")
    r = opkg("build", "packages/add_custom", "--soc", SOC, cwd=add_ws.root, check=0)
    assert not marker.exists(), "SCons unpickled the planted database"
    assert r.stderr.count("was not written by a build on this machine") == 1, r.stderr
    # the database SCons wrote now is sealed: the next build trusts it and says nothing
    golden.write_text(golden.read_text() + "\n# again\n")
    r = opkg("build", "packages/add_custom", "--soc", SOC, cwd=add_ws.root, check=0)
    assert "not written by a build" not in r.stderr
