"""Shared fixtures: throwaway workspaces on the real filesystem, an isolated build cache."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

MINIMAL_KERNEL = """\
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void {entry}(GM_ADDR x, GM_ADDR z, GM_ADDR workspace,
                                              GM_ADDR tiling) {{}}
"""

MINIMAL_MANIFEST = """\
name: {name}
version: 1.0.0
summary: a test operator
op:
  type: {op_type}
  inputs:
    - {{name: x, dtypes: [float32, float16], formats: [ND]}}
  outputs:
    - {{name: z, dtypes: [float32, float16], formats: [ND]}}
  attrs:
    - {{name: alpha, type: float, default: 1.0}}
tiling:
  sources: [op_host/op.cpp]
  data: op_host/op_tiling.h
kernel:
  source: op_kernel/op.cpp
socs: [Ascend910B1]
deps: {deps}
verify:
  golden: golden.py:golden
  cases:
    - {{name: small, shapes: {{x: [4, 64]}}}}
"""


# What `make test-quick` (-m "not slow") leaves out, in one place, chosen from measured times:
# files whose tests build real packages end to end (SCons, g++, the sim, verification), compile
# an import's host sources (test_import.py: the OpDef probe), or publish
# gigabyte archives and kill concurrent publishers; tests that compile through the sim
# (lib_cache) or need a built package (add_custom_cache); single tests that build or compile in
# otherwise quick files (SLOW_TESTS). Seconds to minutes each.
SLOW_FILES = {"test_packages.py", "test_build.py", "test_processes.py", "test_dynamic_inputs.py",
              "test_bfloat16.py", "test_import_samples.py", "test_profile_cli.py",
              "test_explain.py", "test_registry_e2e.py", "test_registry_bombs.py",
              "test_registry_reliability.py", "test_compat_harness.py", "test_ci_output.py",
              "test_verify_inplace.py", "test_import_cann_ops.py", "test_symlink_walk.py",
               "test_verifier_env.py", "test_sim_pch.py", "test_sim_pch_build.py", "test_terminal.py",
              "test_dynamic_outputs.py", "test_ref_tensor.py", "test_inplace_lists.py",
              "test_float64.py", "test_import_soc_configs.py", "test_verify_crash_step.py",
              "test_integrity.py", "test_import.py", "test_dist.py", "test_import_repository.py",
              "test_compat_repository.py", "test_debug_loop.py"}
# cxx_log and warm_cache: tests that count compiles, or start from a built package, then build
SLOW_FIXTURES = {"lib_cache", "add_custom_cache", "cxx_log", "warm_cache"}
SLOW_TESTS = {"test_cli_stats_and_prune_on_a_real_build",
              "test_a_package_on_a_git_base_library_builds_and_verifies_on_the_sim",
              "test_a_moved_checkout_restores_from_the_cache_and_an_edited_one_rebuilds", "test_opkg_build_with_cann_stand_ins",
              "test_padding_mode_parameter_exists_only_in_the_950_headers",
              # package builds (the CANN ones with stand-in tools) in otherwise quick files
              "test_build_resolves_by_pin_and_refuses_misalignment_early", "test_build_locked",
              "test_new_package_builds_and_verifies", "test_infer_shape_note_survives_a_passing_case",
              "test_per_soc_dtype_lists_drive_the_variants_built_per_soc",
              "test_every_combination_is_built_and_verified_under_its_own_name",
              "test_one_letter_typo_fails_the_build_naming_both",
              # g++ over the emulation headers, or libraries from lib_cache requested by name
              "test_a_four_element_braced_copy_list_is_data_copy_params",
              "test_attr_getters_reinterpret_any_set_attr_as_cann_does",
              "test_every_arithmetic_type_converts_to_bfloat16_t",
              "test_kernels_call_scalar_min_and_max_unqualified",
              "test_tofloat_and_tobfloat16_follow_cann", "test_a_loaded_with_transpose",
              "test_b_loaded_with_transpose", "test_transpose_misuse_is_reported_at_its_line"}


def pytest_configure(config):
    """Builds in tests start from an empty cache, where precompiling the sim headers (about two
    kernel compiles) costs more than it saves on the one or two packages a test builds: off for
    the run (module and session fixtures build too), unless OPKG_SIM_PCH is set; on in the
    tests of the precompiled headers (tests/test_sim_pch_build.py). tests/sim compile through
    one per architecture (simbuild.precompiled)."""
    import os
    import tempfile

    os.environ.setdefault("OPKG_SIM_PCH", "0")
    # Bytecode: the suite starts opkg, its verifiers and SCons' Python in thousands of child
    # processes, and without bytecode each compiles every opkg module it imports again (about
    # 0.1 s of CPU a process). Where PYTHONDONTWRITEBYTECODE is set (to keep __pycache__ out of
    # the source tree), the run keeps bytecode in a prefix directory outside the tree instead,
    # for its children and for pytest's rewritten test modules; Python checks each file
    # against its source, so an edited module is compiled again.
    if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
        prefix = os.environ.setdefault(
            "PYTHONPYCACHEPREFIX",
            os.path.join(tempfile.gettempdir(), f"opkg-test-pycache-{os.getuid()}"))
        sys.dont_write_bytecode = False
        sys.pycache_prefix = sys.pycache_prefix or prefix
    # the machine-local key sealing out/'s private state (opkg/util/fsutil.py): one per test
    # process, never the user's; set here so module and session fixtures build with it too
    os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="opkg-test-state-")


def pytest_collection_modifyitems(items):
    from tests.shared_builds import group_files

    group_files(items)
    for item in items:
        if (item.path.name in SLOW_FILES or SLOW_FIXTURES & set(item.fixturenames)
                or getattr(item, "originalname", item.name) in SLOW_TESTS):
            item.add_marker(pytest.mark.slow)


# Files whose tests build or import packages but assert nothing about the cache or about which
# steps compile: their slow tests' caches start with the sim runtime objects (sim_runtime_seed),
# which every cold build otherwise compiles first (the block runner and the host machinery: about
# 60 % of the compile time of a one-package build), and with the host runtime object `opkg
# import`'s OpDef probe links (probe_runtime_seed), which every import otherwise compiles first.
# Files about the cache, the compiles a build runs, --explain, distcc, or interrupting a compiler
# keep the empty cache.
RUNTIME_SEEDED_FILES = {"test_import_samples.py", "test_prototype_check.py",
                        "test_dynamic_inputs.py", "test_bfloat16.py", "test_verify_inplace.py",
                        "test_symlink_walk.py", "test_profile_cli.py", "test_import.py",
                        "test_float64.py", "test_output_shapes.py", "test_new.py",
                        "test_verify_crash_step.py", "test_debug_loop.py", "test_repositories.py",
                        "test_import_cann_ops.py", "test_dynamic_outputs.py",
                        "test_inplace_lists.py", "test_ref_tensor.py",
                        "test_import_soc_configs.py", "test_ci_output.py", "test_packages.py",
                        "test_import_repository.py", "test_verifier_env.py",
                        "test_compat_harness.py", "test_compat_repository.py",
                        "test_variant_names.py"}


@pytest.fixture(autouse=True)
def isolated_cache(request, tmp_path_factory, monkeypatch):
    """Never touch the user's cache or registry from a test."""
    from tests.shared_builds import cache_dir_for, cache_seed

    # one cache per test, or per file where its tests share one (tests/shared_builds.py)
    cache, new = cache_dir_for(request, tmp_path_factory)
    # slow tests only: those build; the seed's own build (once per run) would cost a quick run
    # more than it saves
    if (new and request.node.path.name in RUNTIME_SEEDED_FILES
            and request.node.get_closest_marker("slow") is not None):
        # a whole shared build where the file's tests allow it (tests/shared_builds.py)
        shutil.copytree(cache_seed(request) or request.getfixturevalue("sim_runtime_seed"),
                        cache / "scons", dirs_exist_ok=True)
        shutil.copytree(request.getfixturevalue("probe_runtime_seed"), cache / "opdef-probe",
                        dirs_exist_ok=True)
    monkeypatch.setenv("OPKG_CACHE_DIR", str(cache))
    monkeypatch.delenv("OPKG_REGISTRY", raising=False)



def run_shared_root(tmp_path_factory) -> Path:
    """A directory shared by every pytest-xdist worker of this run (each worker has its own
    basetemp under a common parent); the basetemp itself when not running in parallel."""
    import os

    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def _shared_add_custom_build(tmp_path_factory, name: str, cxx: str) -> Path:
    """A build cache holding the real add_custom example built for Ascend910B1 with compiler
    `cxx`, built once per run by whichever worker gets here first (the others wait on the
    lock)."""
    import fcntl
    import os

    root = run_shared_root(tmp_path_factory) / name
    root.mkdir(exist_ok=True)
    with open(root / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (root / "ready").exists():
            ws = WorkspaceFactory(root / "ws")
            ws.copy_package("add_custom")
            env = dict(os.environ, OPKG_CACHE_DIR=str(root / "cache"), CXX=cxx,
                       TEST_CXX_LOG=os.devnull)
            env.pop("OPKG_REGISTRY", None)
            r = subprocess.run([sys.executable, "-m", "opkg", "build", "//...", "--soc",
                                "Ascend910B1"], cwd=ws.root, capture_output=True, text=True,
                               timeout=900, env=env)
            assert r.returncode == 0, r.stdout + r.stderr
            (root / "ready").touch()
    return root / "cache"


@pytest.fixture(scope="session")
def _add_custom_cache(tmp_path_factory) -> Path:
    import os

    return _shared_add_custom_build(tmp_path_factory, "add_custom-cache",
                                    os.environ.get("CXX", "g++"))


@pytest.fixture(scope="session")
def sim_runtime_seed(_add_custom_cache) -> Path:
    """The cache entries (a SCons cache directory) of the sim runtime objects alone, taken from
    the run's shared add_custom build (for Ascend910B1, compiled with $CXX or g++): the
    objects every package build links and otherwise compiles in each test's empty cache.
    Entries are found by content: the bytes of the objects the build wrote under
    out/sim/.runtime. Selected once per run (by whichever worker gets here first)."""
    import fcntl
    import hashlib

    from opkg.build.cache import TRAILER_SIZE

    root = _add_custom_cache.parent
    seed = root / "runtime-seed"
    with open(root / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (root / "runtime-seed-ready").exists():
            objects = {hashlib.sha256(o.read_bytes()).digest()
                       for o in (root / "ws" / "out" / "sim" / ".runtime").rglob("*.o")}
            shutil.rmtree(seed, ignore_errors=True)
            (seed).mkdir()
            shutil.copy2(_add_custom_cache / "scons" / "config", seed / "config")
            for entry in (_add_custom_cache / "scons").glob("*/*"):
                if hashlib.sha256(entry.read_bytes()[:-TRAILER_SIZE]).digest() in objects:
                    (seed / entry.parent.name).mkdir(exist_ok=True)
                    shutil.copy2(entry, seed / entry.parent.name / entry.name)
            assert len(list(seed.glob("*/*"))) == len(objects) == 2, "runtime entries not found"
            (root / "runtime-seed-ready").touch()
    return seed


@pytest.fixture(scope="session")
def probe_runtime_seed(tmp_path_factory) -> Path:
    """The `opdef-probe` directory of a cache holding the host runtime object every `opkg
    import` probe links (opkg.importers.opdef), compiled once per run, by whichever worker gets
    here first, the way an import compiles it (same compiler, flags and sources, so the same
    content-keyed name)."""
    import fcntl
    import os

    root = run_shared_root(tmp_path_factory) / "probe-runtime"
    root.mkdir(exist_ok=True)
    with open(root / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (root / "ready").exists():
            env = dict(os.environ, OPKG_CACHE_DIR=str(root / "cache"))
            r = subprocess.run([sys.executable, "-c", "from opkg.importers.opdef import "
                                "probe_runtime_object as o; print(o())"], capture_output=True,
                               text=True, timeout=900, env=env, cwd=root)
            assert r.returncode == 0, r.stdout + r.stderr
            assert len(list((root / "cache" / "opdef-probe").glob("host-runtime-*.o"))) == 1
            (root / "ready").touch()
    return root / "cache" / "opdef-probe"


@pytest.fixture
def add_custom_cache(_add_custom_cache, monkeypatch) -> Path:
    """For tests that need add_custom compiled but test what happens after (verification,
    signals while it runs): builds restore the compiled libraries from this shared cache instead
    of compiling them again. Compilation-related assertions need the default, empty cache."""
    monkeypatch.setenv("OPKG_CACHE_DIR", str(_add_custom_cache))
    return _add_custom_cache


@pytest.fixture(scope="session")
def logged_gxx(tmp_path_factory) -> Path:
    """One g++ wrapper for the whole run that appends each command line to $TEST_CXX_LOG: the
    same compiler path, so the same toolchain identity, in every test that logs compiles, and a
    cache built by one of them serves the others (warm_cache)."""
    import os

    wrapper = run_shared_root(tmp_path_factory) / "bin" / "g++-logged"
    if not wrapper.exists():
        wrapper.parent.mkdir(exist_ok=True)
        tmp = wrapper.with_name(f".g++-logged.{os.getpid()}")
        tmp.write_text('#!/bin/sh\necho "$@" >> "${TEST_CXX_LOG:-/dev/null}"\nexec g++ "$@"\n')
        tmp.chmod(0o755)
        os.replace(tmp, wrapper)
    return wrapper


@pytest.fixture(scope="session")
def _add_custom_cache_logged(tmp_path_factory, logged_gxx) -> Path:
    return _shared_add_custom_build(tmp_path_factory, "add_custom-cache-logged", str(logged_gxx))


@pytest.fixture
def warm_cache(_add_custom_cache_logged, cxx_log, tmp_path, monkeypatch) -> Path:
    """The test's own build cache, starting as a copy of add_custom built once per run (with
    the logged compiler of cxx_log): a test whose first build only sets the scene restores it
    instead of compiling it. What it builds after is its own: the shared entries never change.
    Tests about a cold build or compiles of the first build keep the empty cache."""
    cache = tmp_path / "warm-cache"
    shutil.copytree(_add_custom_cache_logged / "scons", cache / "scons")
    monkeypatch.setenv("OPKG_CACHE_DIR", str(cache))
    return cache


class WorkspaceFactory:
    def __init__(self, root: Path):
        self.root = root
        (root / "packages").mkdir(parents=True, exist_ok=True)
        (root / "opkg-workspace.yaml").write_text(
            "package_roots: [packages]\noutput_dir: out\ndefault_socs: [Ascend910B1]\n")

    def write(self, rel: str, text: str) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text) if text.startswith("\n") else text)
        return path

    def operator(self, name: str, op_type: str = "AddOne", deps=(), manifest: str | None = None,
                 entry: str | None = None) -> Path:
        from opkg.core.model import snake_case

        d = f"packages/{name}"
        self.write(f"{d}/op_host/op.cpp", "// host\n")
        self.write(f"{d}/op_host/op_tiling.h", "// tiling\n")
        self.write(f"{d}/op_kernel/op.cpp",
                   MINIMAL_KERNEL.format(entry=entry or snake_case(op_type)))
        self.write(f"{d}/golden.py", "def golden(x, *, alpha):\n    return x + alpha\n")
        text = manifest if manifest is not None else MINIMAL_MANIFEST.format(
            name=name, op_type=op_type, deps="[" + ", ".join(deps) + "]")
        return self.write(f"{d}/opkg.yaml", text)

    def library(self, name: str, deps=()) -> Path:
        d = f"packages/{name}"
        self.write(f"{d}/include/{name}.h", "#pragma once\n")
        return self.write(f"{d}/opkg.yaml", f"name: {name}\nversion: 0.1.0\n"
                          f"include_dirs: [include]\ndeps: [{', '.join(deps)}]\n")

    def copy_package(self, name: str) -> Path:
        dest = self.root / "packages" / name
        shutil.copytree(REPO / "packages" / name, dest)
        return dest

    def copy_fixture(self, name: str, edit: tuple[str, str] | None = None) -> Path:
        """tests/fixtures/<name> as packages/<name>; `edit` (old, new) rewrites its kernel
        op_kernel/<name>.cpp once (the old text must be there)."""
        dest = self.root / "packages" / name
        shutil.copytree(REPO / "tests" / "fixtures" / name, dest)
        if edit:
            kernel = dest / "op_kernel" / f"{name}.cpp"
            old, new = edit
            text = kernel.read_text()
            assert old in text, f"{kernel.name} has no {old!r}"
            kernel.write_text(text.replace(old, new))
        return dest

    def load(self):
        from opkg.core.workspace import Workspace

        return Workspace.load(self.root)


@pytest.fixture
def workspace(tmp_path) -> WorkspaceFactory:
    return WorkspaceFactory(tmp_path / "ws")


def opkg(*args, cwd, check=None):
    """Run the real `opkg` command line in a subprocess, as a user would."""
    r = subprocess.run([sys.executable, "-m", "opkg", *args], cwd=cwd, capture_output=True,
                       text=True, timeout=900)
    if check is not None:
        assert r.returncode == check, r.stdout + r.stderr
    return r


@pytest.fixture
def cxx_log(tmp_path, monkeypatch, logged_gxx):
    """CXX becomes a g++ wrapper that logs every invocation, so tests can say exactly what
    was (not) recompiled. It is a link to the run's one wrapper (logged_gxx), which logs to
    this test's file."""
    log = tmp_path / "cxx.log"
    link = tmp_path / "bin" / "g++-logged"
    link.parent.mkdir()
    link.symlink_to(logged_gxx)
    monkeypatch.setenv("CXX", str(link))
    monkeypatch.setenv("TEST_CXX_LOG", str(log))
    return log


def compiles(log: Path) -> list[str]:
    """Source files compiled since the log was last cleared."""
    if not log.exists():
        return []
    out = []
    for line in log.read_text().splitlines():
        args = line.split()
        if "-c" in args:
            out.append(Path(args[args.index("-c") + 1]).name)
    return out


class Checkpoint:
    """Drives opkg.util.procs.checkpoint: `reached()` returns once the opkg process (or its SCons)
    is paused at the named point, `release()` lets it go on. Tests deliver signals at exact
    moments this way, never after a guessed sleep."""

    def __init__(self, tmp_path: Path, name: str):
        import os

        self.path = tmp_path / f"{name}.checkpoint"
        os.mkfifo(self.path)
        self.env = f"{name}:{self.path}"

    def reached(self, proc, timeout: float = 600) -> int:
        """The pid of the process paused at the checkpoint; fails if `proc` exits first."""
        import os
        import select
        import time

        fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK)
        try:
            deadline = time.monotonic() + timeout
            data = b""
            while not data.endswith(b"\n"):
                assert proc.poll() is None, f"exited ({proc.returncode}) before the checkpoint"
                assert time.monotonic() < deadline, "checkpoint not reached"
                if select.select([fd], [], [], 0.1)[0]:
                    data += os.read(fd, 64)
            # two processes may reach it together (two variants verifying in parallel): the first
            return int(data.split(b"\n")[0])
        finally:
            os.close(fd)

    def release(self, proc) -> None:
        """Let the paused process go on (returns at once if it already exited)."""
        import errno
        import os
        import time

        while proc.poll() is None:
            try:
                os.close(os.open(self.path, os.O_WRONLY | os.O_NONBLOCK))
                return
            except OSError as exc:
                if exc.errno != errno.ENXIO:     # ENXIO: not waiting for us yet
                    raise
                time.sleep(0.01)


def marked_processes(marker: str) -> list[str]:
    """Live processes whose environment carries OPKG_TEST_MARKER=marker: everything an opkg run
    started with that marker, however deep, and nothing else (zombies are already dead)."""
    import os

    needle = f"OPKG_TEST_MARKER={marker}".encode()
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{pid}/stat").read_bytes()
            env = Path(f"/proc/{pid}/environ").read_bytes()
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if stat[stat.rfind(b")") + 2:].split()[0] == b"Z":
            continue
        if needle in env.split(b"\0"):
            found.append(pid + ": " + cmd.replace(b"\0", b" ").decode(errors="replace"))
    return found


def start_opkg(*args, cwd, marker: str, checkpoint: Checkpoint | None = None, **kwargs):
    """Start the real opkg command line with a process marker (and a checkpoint) in its
    environment; returns the Popen."""
    import os

    import signal

    env = dict(os.environ, OPKG_TEST_MARKER=marker)
    if checkpoint is not None:
        env["OPKG_TEST_CHECKPOINT"] = checkpoint.env
    # Started as from a terminal: a suite launched in the background (`make test &` in a script)
    # ignores SIGINT, the child would inherit that, and Python then installs no KeyboardInterrupt,
    # so the Ctrl-C tests would depend on how the suite was started.
    kwargs.setdefault("preexec_fn", lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    return subprocess.Popen([sys.executable, "-m", "opkg", *args], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)


@pytest.fixture
def marker():
    """A process marker for start_opkg. Whatever still carries it at teardown is killed, so a
    failing test leaves nothing running on the machine."""
    import os
    import signal
    import uuid

    token = uuid.uuid4().hex
    yield token
    for line in marked_processes(token):
        try:
            os.kill(int(line.split(":")[0]), signal.SIGKILL)
        except ProcessLookupError:
            pass
