"""The Ascend 950's math API with algorithm configurations (asc-devkit include/adv_api/math/*.h
for __NPU_ARCH__ 3510, and the basic API's Div/Sqrt configs): the calls opbase's atvoss
`util/vec.h` makes compile and verify against NumPy, and a configuration the devkit rejects for a
dtype is a compile error naming it (tests/fixtures/math_950)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.conftest import opkg

FIXTURE = Path(__file__).parent / "fixtures" / "math_950"


def test_configured_math_apis_verify_exactly_in_float32_and_float16(workspace):
    workspace.copy_fixture("math_950")
    r = opkg("build", "packages/math_950", "--json", "--jobs", "1", cwd=workspace.root, check=0)
    [target] = json.loads(r.stdout)["targets"]
    assert target["passed"], r.stdout + r.stderr
    for variant in ("float32", "float16"):
        report = json.loads((workspace.root / f"out/sim/math_950/Ascend950PR_9599/{variant}/verification.json")
                            .read_text())
        [result] = report["results"]
        assert result["passed"]
        # every configuration computes the exact function rounded once, as the golden does
        assert {name: out["max_abs_error"] for name, out in result["outputs"].items()} == dict.fromkeys(
            ("sin", "cos", "atan", "erf", "fmod", "power", "div", "sqrt"), 0.0)


def test_a_float_only_algorithm_on_half_is_a_compile_error(workspace):
    workspace.copy_fixture("math_950", ("if constexpr (sizeof(T) == 4) Atan<T, false, ATAN_CFG>(ol, xl, n);\n"
                      "                else Atan(ol, xl, n);", "Atan<T, false, ATAN_CFG>(ol, xl, n);"))
    r = opkg("build", "packages/math_950", "--jobs", "1", cwd=workspace.root)
    assert r.returncode != 0
    assert "Atan with POLYNOMIAL_APPROXIMATION supports float only" in r.stdout + r.stderr, r.stdout + r.stderr


def test_an_fmod_iteration_count_outside_the_devkit_range_is_a_compile_error(workspace):
    workspace.copy_fixture("math_950", ("{FmodAlgo::ITERATION_COMPENSATION, 11}", "{FmodAlgo::ITERATION_COMPENSATION, 12}"))
    r = opkg("test", "packages/math_950", "--variant", "float32", "--jobs", "1", cwd=workspace.root)
    assert r.returncode != 0
    assert "the iteration number must be in [1, 11]" in r.stdout + r.stderr, r.stdout + r.stderr


_HOST_MATH = """#pragma once
// the host twin of op_kernel/math_util.h, as opbase's op_host/util/math_util.h has it
namespace Ops { namespace Base {
template <typename T> T CeilDiv(T x, T y) { return y == 0 ? x : (x + y - 1) / y; }
} }
"""
_KERNEL_MATH = """#pragma once
namespace Ops { namespace Base {
template <typename T> __aicore__ inline T CeilDiv(T a, T b) { return b == 0 ? a : (a + b - 1) / b; }
} }
struct RegEluKernelTiling { uint32_t total; };
"""


def _tiling_clash_package(workspace, registered: str):
    dest = workspace.root / "packages" / "reg_elu"
    shutil.copytree(Path(__file__).parent / "fixtures" / "reg_elu", dest)
    (dest / "op_host" / "host_math.h").write_text(_HOST_MATH)
    (dest / "op_kernel" / "kernel_math.h").write_text(_KERNEL_MATH)
    header = dest / "op_host" / "reg_elu_tiling.h"
    # an array field sized by a constant of the header: the kernel's struct gets its value
    header.write_text(header.read_text()
                      .replace('#include "register/tilingdata_base.h"\n',
                               '#include "register/tilingdata_base.h"\n#include "host_math.h"\n'
                               'constexpr uint32_t REG_ELU_PAD = 3;\n')
                      .replace("  TILING_DATA_FIELD_DEF(uint32_t, total);\n",
                               "  TILING_DATA_FIELD_DEF(uint32_t, total);\n"
                               "  TILING_DATA_FIELD_DEF_ARR(uint32_t, REG_ELU_PAD, pad);\n"))
    kernel = dest / "op_kernel" / "reg_elu.cpp"
    text = kernel.read_text().replace('#include "kernel_operator.h"\n',
                                      '#include "kernel_operator.h"\n#include "kernel_math.h"\n')
    read = {"registered": "    GET_TILING_DATA(t, tiling);\n    static_assert(sizeof(t.pad) == 3 * sizeof(uint32_t));\n",
            "own": "    REGISTER_TILING_DEFAULT(RegEluKernelTiling);\n"
                   "    GET_TILING_DATA_WITH_STRUCT(RegEluKernelTiling, t, tiling);\n",
            # the registration after the read, as ops-nn's hardtanh_grad has it: CANN applies it
            "late": "    GET_TILING_DATA(t, tiling);\n    REGISTER_TILING_DEFAULT(RegEluKernelTiling);\n"
                    "    static_assert(std::is_same<decltype(t), RegEluKernelTiling>::value);\n"}[registered]
    kernel.write_text(text.replace("    GET_TILING_DATA(t, tiling);\n",
                                   read + "    (void)Ops::Base::CeilDiv<int64_t>(t.total, 64);\n"))


def test_a_kernel_reading_the_registered_tiling_gets_its_struct_not_the_host_headers_includes(workspace):
    """The structs CANN's kernel build generates from the registered tiling classes carry none of
    the op_host header's includes: ops-nn's Ascend 950 kernels include op_kernel/math_util.h while
    their tiling header includes opbase's host math_util.h, both with Ops::Base::CeilDiv."""
    _tiling_clash_package(workspace, registered="registered")
    r = opkg("test", "packages/reg_elu", "--variant", "float32", "--jobs", "1", cwd=workspace.root)
    assert r.returncode == 0, r.stdout + r.stderr


def test_a_kernel_with_its_own_tiling_struct_reads_nothing_of_the_host_tiling_header(workspace):
    _tiling_clash_package(workspace, registered="own")
    r = opkg("test", "packages/reg_elu", "--variant", "float32", "--jobs", "1", cwd=workspace.root)
    assert r.returncode == 0, r.stdout + r.stderr


def test_get_tiling_data_reads_the_struct_registered_after_it(workspace):
    _tiling_clash_package(workspace, registered="late")
    r = opkg("test", "packages/reg_elu", "--variant", "float32", "--jobs", "1", cwd=workspace.root)
    assert r.returncode == 0, r.stdout + r.stderr


BASIC = Path(__file__).parent / "fixtures" / "basic_950"


def test_the_950_basic_apis_of_the_atvoss_schedulers_verify_exactly_and_mutex_orders_pipes(workspace):
    """tests/fixtures/basic_950: Truncate, the NDDMA DataCopy (a transpose and a padded copy),
    Broadcast with its BroadcastTiling, tensors at UB addresses; under --sync-check the Mutex
    pairs are the only ordering between the pipes, and they suffice."""
    shutil.copytree(BASIC, workspace.root / "packages" / "basic_950")
    r = opkg("test", "packages/basic_950", "--json", "--jobs", "1", "--sync-check", cwd=workspace.root)
    [target] = json.loads(r.stdout)["targets"]
    assert target["passed"], r.stdout + r.stderr
    report = json.loads((workspace.root / "out/sim/basic_950/Ascend950PR_9599/float32/verification.json")
                        .read_text())
    [result] = report["results"]
    assert {name: out["max_abs_error"] for name, out in result["outputs"].items()} == dict.fromkeys(
        ("floor", "transposed", "padded", "tiled"), 0.0)


def test_a_vector_read_without_its_mutex_lock_is_a_hazard_at_its_line(workspace):
    dest = workspace.root / "packages" / "basic_950"
    shutil.copytree(BASIC, dest)
    kernel = dest / "op_kernel" / "basic_950.cpp"
    kernel.write_text(kernel.read_text().replace("    Mutex::Lock<PIPE_V>(0);\n", "", 1))
    r = opkg("test", "packages/basic_950", "--jobs", "1", "--sync-check", cwd=workspace.root)
    assert r.returncode != 0
    assert "basic_950.cpp:27: " in r.stdout and "read-after-write hazard" in r.stdout, r.stdout


def test_installing_a_golden_s_declared_package_re_verifies_instead_of_replaying_the_cache(workspace, tmp_path):
    """A verification that failed because the golden's package (verify.requires) was missing is
    the environment's result: once the package is there, the cached result must not come back."""
    import os
    import subprocess
    import sys

    dest = workspace.root / "packages" / "math_950"
    shutil.copytree(FIXTURE, dest)
    manifest = dest / "opkg.yaml"
    manifest.write_text(manifest.read_text().replace("  golden: golden.py:math_950\n",
                                                     "  golden: golden.py:math_950\n  requires: [opkg_golden_dep]\n"))
    golden = dest / "golden.py"
    golden.write_text("import opkg_golden_dep  # noqa: F401\n" + golden.read_text())
    site = tmp_path / "site"
    site.mkdir()

    def run(env_path):
        env = dict(os.environ, PYTHONPATH=env_path) if env_path else dict(os.environ)
        return subprocess.run([sys.executable, "-m", "opkg", "test", "packages/math_950", "--variant", "float32",
                               "--jobs", "1"], cwd=workspace.root, capture_output=True, text=True, timeout=900,
                              env=env)

    r = run(None)
    assert r.returncode != 0 and "needs the Python package 'opkg_golden_dep'" in r.stdout, r.stdout + r.stderr
    (site / "opkg_golden_dep.py").write_text("")
    r = run(str(site))
    assert r.returncode == 0, r.stdout + r.stderr


def test_pattern_reduce_ar_and_ra_match_numpy(workspace):
    """The 950's pattern reduce API (tests/fixtures/reduce_950): ReduceSum over rows (AR) and
    columns (RA), ReduceMax (AR) and ReduceMin (RA), with and without sharedTmpBuffer; the
    row sums then go through the 950's level-2 Divs, by a scalar and by a one-element tensor that
    the 950's Duplicate(dst, src, count) spread from another element."""
    shutil.copytree(Path(__file__).parent / "fixtures" / "reduce_950", workspace.root / "packages" / "reduce_950")
    r = opkg("build", "packages/reduce_950", "--json", "--jobs", "1", cwd=workspace.root, check=0)
    [target] = json.loads(r.stdout)["targets"]
    assert target["passed"], r.stdout + r.stderr
    report = json.loads((workspace.root / "out/sim/reduce_950/Ascend950PR_9599/float32/verification.json")
                        .read_text())
    [result] = report["results"]
    # max and min are exact; sums differ from NumPy's order by rounding only
    assert result["outputs"]["max_ar"]["max_abs_error"] == 0.0 and result["outputs"]["min_ra"]["max_abs_error"] == 0.0
    assert result["passed"]


def test_pattern_reduce_max_and_min_take_the_16_and_8_bit_types_and_sum_does_not(tmp_path):
    """The devkit's dtypes per API on the 950 (reduce_max_3510_impl.h, reduce_min_3510_impl.h:
    also int8/uint8/int16/uint16/half/bfloat16; reduce_sum_3510_impl.h: 32- and 64-bit only):
    softmax_cross_entropy_with_logits reduces half rows with ReduceMax."""
    import subprocess

    from opkg.core.socs import get_soc
    from opkg.sim import flags

    def compile_950(body):
        src = tmp_path / "k.cpp"
        src.write_text('#include "kernel_operator.h"\n#include "adv_api/reduce/reduce.h"\n'
                       "using namespace AscendC;\n"
                       "void f(LocalTensor<half>& h, LocalTensor<bfloat16_t>& b, LocalTensor<int8_t>& c,\n"
                       "       LocalTensor<uint8_t>& tmp, const uint32_t* shape) {\n" + body + "}\n")
        return subprocess.run(["g++", *flags.common_flags(), *flags.arch_flags(get_soc("Ascend950PR_9599")),
                               "-fsyntax-only", str(src)], capture_output=True, text=True)

    r = compile_950("    ReduceMax<half, Pattern::Reduce::AR>(h, h, shape, false);\n"
                    "    ReduceMin<bfloat16_t, Pattern::Reduce::RA>(b, b, tmp, shape, false);\n"
                    "    ReduceMax<int8_t, Pattern::Reduce::AR>(c, c, shape, false);\n")
    assert r.returncode == 0, r.stderr[-3000:]
    r = compile_950("    ReduceSum<half, Pattern::Reduce::AR>(h, h, shape, false);\n")
    assert r.returncode != 0 and "ReduceMax and ReduceMin also int8_t" in r.stderr, r.stderr[-3000:]


def test_a_ub_tensor_declared_past_the_ub_is_a_warning_and_its_accesses_are_checked(workspace):
    # atvoss's one-dim broadcast scheduler passes bytes as LocalTensor(pos, addr, tileSize)'s
    # element count and sets the real length with SetBufferLen: no fault on the device
    dest = workspace.root / "packages" / "basic_950"
    shutil.copytree(BASIC, dest)
    kernel = dest / "op_kernel" / "basic_950.cpp"
    text = kernel.read_text()
    old = "    in.SetBufferLen(n);\n"
    assert old in text and "row(TPosition::VECCALC, 24576, 2048)" in text
    kernel.write_text(text.replace("row(TPosition::VECCALC, 24576, 2048)", "row(TPosition::VECCALC, 24576, 1 << 20)")
                      .replace(old, old + "    row.SetBufferLen(2048);\n"))
    r = opkg("test", "packages/basic_950", "--json", "--jobs", "1", cwd=workspace.root, check=0)
    [target] = json.loads(r.stdout)["targets"]
    assert target["passed"], r.stdout + r.stderr
    report = json.loads((workspace.root / "out/sim/basic_950/Ascend950PR_9599/float32/verification.json")
                        .read_text())
    [result] = report["results"]
    assert any("basic_950.cpp:20: LocalTensor(pos, addr 24576, tileSize 1048576)" in line
               and "the tensor is cut at the UB's end" in line for line in result["log"]), result["log"]


def test_a_pattern_reduce_result_is_undefined_only_where_its_own_line_is(workspace):
    # x's last row never reaches UB: row 5's AR sum is undefined, the other rows' are not
    dest = workspace.root / "packages" / "reduce_950"
    shutil.copytree(Path(__file__).parent / "fixtures" / "reduce_950", dest)
    kernel = dest / "op_kernel" / "reduce_950.cpp"
    old = "DataCopyExtParams{1, n * static_cast<uint32_t>(sizeof(float)), 0, 0, 0}"
    assert old in kernel.read_text()
    kernel.write_text(kernel.read_text().replace(
        old, "DataCopyExtParams{1, (n - t.cols) * static_cast<uint32_t>(sizeof(float)), 0, 0, 0}"))
    r = opkg("test", "packages/reduce_950", "--jobs", "1", cwd=workspace.root, check=1)
    assert "stores undefined values into bytes [20, 24) of 'sum_ar'" in r.stdout, r.stdout
