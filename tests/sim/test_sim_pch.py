"""The emulation headers precompiled once per architecture (opkg.sim.flags.pch_flags): a kernel
compiles through them to the same object, with the same diagnostics (file:line), and g++ takes
them for every variant's flags (the headers test no per-op or per-variant macro)."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from opkg.core.model import OpSpec, TensorSpec
from opkg.sim import flags
from opkg.core.socs import get_soc
import simbuild
from simbuild import line_of

ADD = OpSpec("AddCustom", tuple(TensorSpec(n, ("float16", "float32")) for n in ("x", "y")),
             (TensorSpec("z", ("float16", "float32")),))
ERROR = re.compile(r"^(\S+?):(\d+):(\d+): error: .*$", re.MULTILINE)


@pytest.fixture(scope="module")
def pch(tmp_path_factory, soc910b):
    return simbuild.precompiled(soc910b, tmp_path_factory.mktemp("pch-cache"),
                                simbuild._compiler_version())


def compile_kernel(pkg, variant, soc, out, pch=None, extra=()):
    header = pkg / "op_host" / "add_custom_tiling.h"
    launcher = flags.has_chevron_launch((pkg / "op_kernel" / "add_custom.cpp").read_text())
    argv = [simbuild.CXX, *flags.common_flags(),
            *flags.kernel_flags(ADD, ADD.variant(variant), soc, header, pch, launcher), *extra,
            f"-I{pkg / 'op_kernel'}", f"-I{pkg}", "-c", str(pkg / "op_kernel" / "add_custom.cpp"),
            "-o", str(out)]
    return subprocess.run(argv, capture_output=True, text=True)


@pytest.mark.parametrize("variant", ["float16", "float32"])
def test_a_kernel_compiles_through_the_pch_to_the_same_object(pkgs, soc910b, pch, tmp_path,
                                                              variant):
    used = compile_kernel(pkgs / "add", variant, soc910b, tmp_path / "pch.o", pch, ["-H"])
    assert used.returncode == 0, used.stderr
    # -H marks a precompiled header g++ used with '!' (and -Winvalid-pch says why one was not)
    assert f"! {pch}.gch" in used.stderr.splitlines() and "invalid-pch" not in used.stderr
    plain = compile_kernel(pkgs / "add", variant, soc910b, tmp_path / "plain.o")
    assert plain.returncode == 0, plain.stderr
    assert (tmp_path / "pch.o").read_bytes() == (tmp_path / "plain.o").read_bytes()


def test_compile_errors_keep_their_file_and_line(pkgs, soc910b, pch, tmp_path):
    pkg = tmp_path / "add"
    shutil.copytree(pkgs / "add", pkg)
    kernel = pkg / "op_kernel" / "add_custom.cpp"
    # one error in the kernel itself, one reported inside the emulation (a template it
    # instantiates: GET_TILING_DATA on a struct that is not trivially copyable)
    kernel.write_text(kernel.read_text() + """
struct NotTiling { NotTiling(const NotTiling&) {} int n; };
extern "C" __global__ __aicore__ void pch_errors(GM_ADDR tiling) {
    int unused = no_such_name;  // @kernel-error
    GET_TILING_DATA_WITH_STRUCT(NotTiling, t, tiling);
}
""")
    with_pch = compile_kernel(pkg, "float32", soc910b, tmp_path / "a.o", pch)
    without = compile_kernel(pkg, "float32", soc910b, tmp_path / "b.o")
    assert with_pch.returncode != 0 and without.returncode != 0
    errors = ERROR.findall(with_pch.stderr)
    assert (str(kernel), str(line_of(kernel, "kernel-error"))) in [e[:2] for e in errors]
    slot = flags.include_dir() / "opkg_sim" / "basic_api" / "core" / "tiling_slot.h"
    assert str(slot) in [e[0] for e in errors], with_pch.stderr
    assert errors == ERROR.findall(without.stderr)


def test_one_pch_serves_every_variant_and_another_architecture_gets_its_own(pkgs, soc910b, pch,
                                                                            tmp_path):
    cache = pch.parent.parent
    compiler = simbuild._compiler_version()
    first = simbuild.precompiled(soc910b, cache, compiler)
    assert first == pch
    assert simbuild.precompiled(get_soc("Ascend910B3"), cache, compiler) == first  # same arch
    other = simbuild.precompiled(get_soc("Ascend310P3"), cache, compiler)
    assert other != first and other.with_name(other.name + ".gch").is_file()
    assert flags.arch_flags(get_soc("Ascend310P3")) != flags.arch_flags(soc910b)
    r = compile_kernel(pkgs / "add", "float16", get_soc("Ascend310P3"), tmp_path / "k.o", other,
                       ["-H"])
    assert r.returncode == 0 and f"! {other}.gch" in r.stderr.splitlines()
    # the 910B1 one does not fit a 310P3 kernel: g++ says so and reads the headers instead
    r = compile_kernel(pkgs / "add", "float16", get_soc("Ascend310P3"), tmp_path / "k2.o", first)
    assert r.returncode == 0 and "invalid-pch" in r.stderr
    assert (tmp_path / "k.o").read_bytes() == (tmp_path / "k2.o").read_bytes()


def test_a_kernel_object_defines_none_of_the_runtime_machinery(pkgs, soc910b, pch, tmp_path):
    # The checks and bookkeeping are compiled once, into the block runner (OPKG_SIM_RUNTIME_TU,
    # opkg/sim/README.md): a kernel object that defined them again would cost its compile that
    # much more (docs/performance.md). The kernel still calls them, by name.
    r = compile_kernel(pkgs / "add", "float32", soc910b, tmp_path / "k.o", pch)
    assert r.returncode == 0, r.stderr
    defined = subprocess.run(["nm", "-C", "--defined-only", str(tmp_path / "k.o")],
                             capture_output=True, text=True, check=True).stdout
    undefined = subprocess.run(["nm", "-C", "--undefined-only", str(tmp_path / "k.o")],
                               capture_output=True, text=True, check=True).stdout
    for name in ("opkg_sim::check_gm(", "opkg_sim::check_read(", "opkg_sim::format[",
                 "AscendC::TPipe::InitBuffer(", "AscendC::TQueBase::alloc_buffer(",
                 "opkg_sim::BlockState::~BlockState()",
                 # and what a kernel at -Og (flags.KERNEL_OPT) would otherwise emit out of line,
                 # with the containers they use (the hazard map, the queue's deque)
                 "AscendC::TPipe::TPipe()", "AscendC::TQueBase::TQueBase(",
                 "opkg_sim::sync_set_flag(", "opkg_sim::sync_wait_flag(", "opkg_sim::count_vec(",
                 "opkg_sim::save_undo(", "opkg_sim::bitwise_op(", "std::_Deque_base<",
                 "std::_Rb_tree<std::tuple<int, int, int>"):
        assert name not in defined, name
    assert "opkg_sim::check_gm(" in undefined and "AscendC::TQueBase::alloc_buffer(" in undefined
    assert "AscendC::TPipe::TPipe()" in undefined and "opkg_sim::count_vec(" in undefined


def test_an_instrumented_simt_kernel_has_a_pch_of_its_own_flags(pkgs, tmp_path_factory, tmp_path):
    """SIMT kernels are compiled with the thread-sanitizer instrumentation (flags.SIMT_FLAGS),
    which the architecture's plain .gch does not fit: they get one built with those flags, and
    compile through it to the same object."""
    soc = get_soc("Ascend950PR_9599")
    pkg = pkgs / "simt"
    op = OpSpec("SimtKernels", (TensorSpec("x", ("float32",)), TensorSpec("idx", ("int32",))),
                (TensorSpec("y", ("float32",)),))
    cache = tmp_path_factory.mktemp("pch-simt")
    compiler = simbuild._compiler_version()
    plain = simbuild.precompiled(soc, cache, compiler)
    simt = simbuild.precompiled(soc, cache, compiler, simt=True)
    assert simt != plain and "-fsanitize=thread" in flags.pch_flags(soc, simt=True)

    def compile_simt(out, pch, extra=()):
        argv = [simbuild.CXX, *flags.common_flags(),
                *flags.kernel_flags(op, op.variants()[0], soc, pkg / "op_host" / "simt_kernels_tiling.h",
                                    pch, False, True), *extra,
                f"-I{pkg / 'op_kernel'}", f"-I{pkg}", "-c", str(pkg / "op_kernel" / "simt_kernels.cpp"),
                "-o", str(out)]
        return subprocess.run(argv, capture_output=True, text=True)

    used = compile_simt(tmp_path / "simt.o", simt, ["-H"])
    assert used.returncode == 0, used.stderr[-3000:]
    assert f"! {simt}.gch" in used.stderr.splitlines() and "invalid-pch" not in used.stderr
    misfit = compile_simt(tmp_path / "misfit.o", plain)   # g++ reads the headers instead
    assert misfit.returncode == 0 and "invalid-pch" in misfit.stderr
    # the same object (-g1 names the compile's flags in the debug info: compared without -H)
    assert compile_simt(tmp_path / "simt.o", simt).returncode == 0
    assert (tmp_path / "simt.o").read_bytes() == (tmp_path / "misfit.o").read_bytes()
