"""The high-level Matmul (opkg_sim/adv_api/matmul/hl_matmul.h) and its host tiling (host_matmul_tiling.h):
MultiCoreMatmulTiling splits M x N over AIV cores, a mixed kernel runs its body on two AIVs per AI
core (GetBlockIdx = block * 2 + sub-block), Matmul computes a x b + bias per share (SetTail at the
edges, B optionally transposed, or in NZ format); misuse is reported at the kernel's file:line.
The kernel includes the Matmul through the later releases' lib/matrix/matmul/ paths and names
MatmulConfig, GetNormalConfig and CubeFormat before any `using namespace AscendC` (global names in
CANN), so every test here also fails when those do not compile."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, SimModes, TensorSpec
from opkg.sim import runtime
import simbuild

OP = OpSpec(
    "HlMatmul",
    (TensorSpec("a", ("float16",)), TensorSpec("b", ("float16",)), TensorSpec("bias", ("float32",))),
    (TensorSpec("c", ("float32",)),),
    (AttrSpec("which", "int", required=True), AttrSpec("dim", "int", required=True),
     AttrSpec("trans_b", "int", required=True)),
)
KERNEL = Path(__file__).parent / "pkgs" / "hlmatmul" / "op_kernel" / "hl_matmul.cpp"


@pytest.fixture(scope="module")
def built(pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "hlmatmul", OP, OP.variants()[0], soc910b, lib_cache, stem="hl_matmul")


def run(built, m, n, k, *, which=1, dim=4, trans_b=False, seed=0, modes=SimModes()):
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    bias = rng.uniform(-1, 1, n).astype(np.float32)
    c = np.full((m, n), np.nan, np.float32)
    info = runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc,
                            {"a": a, "b": np.ascontiguousarray(b.T if trans_b else b), "bias": bias}, {"c": c},
                            {"which": which, "dim": dim, "trans_b": int(trans_b)}, modes=modes)
    want = a.astype(np.float64) @ b.astype(np.float64) + bias
    return c, want, info


@pytest.mark.parametrize("m,n,k,dim", [(64, 64, 32, 1), (100, 70, 45, 4), (256, 96, 128, 3), (33, 200, 17, 8)])
def test_matmul_with_bias_split_over_aiv_cores(built, m, n, k, dim):
    got, want, _ = run(built, m, n, k, dim=dim)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("isa", ["avx512", "avx2", "base"])
def test_products_sum_over_k_in_order_to_the_bit(built, monkeypatch, isa):
    # the share's product runs on Mmad's kernel (cube_gemm.h) at each vector width the CPU has:
    # each C element is the bias plus its exact half x half products added in k order, in float32
    flag = {"avx512": "avx512f", "avx2": "avx2"}.get(isa)
    if flag and flag not in Path("/proc/cpuinfo").read_text().split():
        pytest.skip(f"this CPU has no {isa}")
    monkeypatch.setenv("OPKG_SIM_GEMM", isa)
    m, n, k = 40, 37, 45
    got, _, _ = run(built, m, n, k, dim=1, seed=4)
    rng = np.random.default_rng(4)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16).astype(np.float32)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16).astype(np.float32)
    want = np.broadcast_to(rng.uniform(-1, 1, n).astype(np.float32), (m, n)).copy()
    for kk in range(k):
        want += a[:, kk:kk + 1] * b[kk:kk + 1, :]
    np.testing.assert_array_equal(got, want)


def test_transposed_b(built):
    got, want, _ = run(built, 48, 80, 40, trans_b=True)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)


def test_a_mixed_kernel_runs_two_aiv_bodies_per_block(built):
    # dim 4 on 64 x 64: four 32 x 32 shares, blockDim 2: AIVs 0..3 each store one share
    got, want, info = run(built, 64, 64, 32, dim=4)
    assert info.block_dim == 2
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)


def test_tiling_data_bound_with_set_data_ptr_needs_no_save_to_buffer(built):
    # the nested TCubeTiling and transB reach the kernel through SetDataPtr's buffer alone
    got, want, _ = run(built, 100, 70, 45, which=9, dim=4, trans_b=True)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)


def test_c_rows_from_unwritten_a_rows_are_garbage_only_where_stored(built):
    # A's last row in the workspace is never written: C's last row holds garbage. Kept in the
    # workspace and dropped, the other rows verify; stored into c, it is reported at the Matmul
    got, want, _ = run(built, 32, 32, 32, which=11, dim=1)
    np.testing.assert_allclose(got[:31], want[:31], rtol=1e-5, atol=1e-4)
    with pytest.raises(runtime.SimError) as err:
        run(built, 32, 32, 32, which=10, dim=1)
    text = str(err.value)
    assert f"hl_matmul.cpp:{simbuild.line_of(KERNEL, 'garbage-row')}" in text, text
    for words in ("stores C element (31, 0) of its share, computed from A at byte", "of 'workspace', which holds no "
                  "value", "into 'c'"):
        assert words in text, text


@pytest.mark.parametrize("k", [32, 40])
def test_b_in_nz_format_and_a_tiling_registered_as_void_pointer(built, k):
    # NZ: B's columns in groups of 16 halves (32 bytes), each group its K rows one after another,
    # the group K rounded up to the 16-row fractal (40 -> 48: the padding rows are zeros)
    m, n, height = 20, 48, (k + 15) // 16 * 16
    rng = np.random.default_rng(1)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    bias = rng.uniform(-1, 1, n).astype(np.float32)
    padded = np.zeros((height, n), np.float16)
    padded[:k] = b
    b_nz = np.ascontiguousarray(padded.reshape(height, n // 16, 16).transpose(1, 0, 2)).reshape(height, n)
    c = np.full((m, n), np.nan, np.float32)
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"a": a, "b": b_nz, "bias": bias},
                     {"c": c}, {"which": 12, "dim": 1, "trans_b": 0})
    np.testing.assert_allclose(c, a.astype(np.float64) @ b.astype(np.float64) + bias, rtol=1e-5, atol=1e-4)


def test_set_align_split_makes_shares_multiples_of_the_alignment(built):
    # 64 x 64 on 4 cores: 32 x 32 shares (two AI cores); aligned to 64 x 64, one share on one AIV
    got, want, info = run(built, 64, 64, 32, which=7, dim=4)
    assert info.block_dim == 1
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)
    got, want, info = run(built, 100, 130, 32, which=7, dim=4)   # 96 x 128 shares, ragged tails
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)


def test_tiling_without_a_platform_and_a_constant_matmul_config(built):
    # the host object built without a platform takes the SoC of the tiling call (same shares as
    # with it); the kernel's object is configured by a MatmulApiStaticTiling (GetMatmulApiTiling)
    got, want, info = run(built, 100, 70, 45, which=15, dim=4)
    _, _, ref = run(built, 100, 70, 45, which=1, dim=4)
    assert info.block_dim == ref.block_dim
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("m,n,k,dim", [(64, 64, 32, 1), (300, 200, 40, 2)])
def test_iterate_and_get_tensor_c_place_every_base_block(built, m, n, k, dim):
    # 300 x 200 on two cores: shares of 160 (150) x 200, base blocks 128 x 128 with ragged edges
    got, want, _ = run(built, m, n, k, which=5, dim=dim)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)


def test_a_matmul_never_ended_is_a_warning_and_an_error_under_strict_bounds(built):
    # the device's KFC client quits the cube server when the kernel ends, End() or not
    got, want, info = run(built, 64, 64, 32, which=2, dim=1)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)
    line = simbuild.line_of(KERNEL, "iterate")
    assert any(f"hl_matmul.cpp:{line}: the kernel returned with a Matmul object used" in e and "never ended" in e
               for e in info.log), info.log
    with pytest.raises(runtime.SimError) as err:
        run(built, 64, 64, 32, which=2, dim=1, modes=SimModes(strict_bounds=True))
    assert f"hl_matmul.cpp:{line}" in str(err.value) and "End()" in str(err.value)


@pytest.mark.parametrize("which,marker,words", [
    (3, "iterate", ["K mismatch", "Ka = 16"]),
    (4, "unregistered", ["REGIST_MATMUL_OBJ"]),
    (6, "no-iterate", ["call Iterate first"]),
    (8, "wait-unset", ["CrossCoreWaitFlag(5)", "wait forever"]),
    (14, "wait-sync", ["WaitIterateAll", "IterateAll<false>"]),
    (17, "ffts-mode2", ["CrossCoreSetFlag mode 2", "vector bodies only"]),
])
def test_misuse_is_reported_at_its_line(built, which, marker, words):
    with pytest.raises(runtime.SimError) as err:
        run(built, 64, 64, 32, which=which, dim=1)
    text = str(err.value)
    assert f"hl_matmul.cpp:{simbuild.line_of(KERNEL, marker)}" in text, text
    for w in words:
        assert w in text, text


def test_a_copy_of_the_matmul_object_computes_as_the_original(built):
    got, want, _ = run(built, 100, 70, 45, which=16, dim=4)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("trans_b", [False, True])
def test_async_iterate_all_with_c_stride_from_org_kc(built, trans_b):
    # one share: SetOrgShape(M, N or 1, Ka, 1 or Kb, orgKc = N), IterateAll<false>, WaitIterateAll
    got, want, _ = run(built, 48, 80, 40, which=13, dim=1, trans_b=trans_b)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("trans_b", [False, True])
def test_iterate_all_stores_c_in_nz(built, trans_b):
    # one share of 48 x 80: C in NZ is 5 groups of 16 columns, each the 48 rows of 16 values
    m, n, k = 48, 80, 40
    got, want, _ = run(built, m, n, k, which=18, dim=1, trans_b=trans_b)
    nz = got.reshape(n // 16, m, 16).transpose(1, 0, 2).reshape(m, n)
    np.testing.assert_allclose(nz, want, rtol=1e-5, atol=1e-4)


def test_iterate_into_a_co1_the_kernel_fixpipes_out(built):
    # one base block of 40 x 70: CO1's 16-column blocks 48 rows (40 rounded up) apart; the ragged
    # last block and the 8 padding rows are never read by the Fixpipe
    got, want, _ = run(built, 40, 70, 24, which=19, dim=1)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)


def test_iterate_into_a_co1_with_partial_sum_onto_nothing_is_reported(built):
    with pytest.raises(runtime.SimError) as err:
        run(built, 40, 70, 24, which=20, dim=1)
    text = str(err.value)
    assert f"hl_matmul.cpp:{simbuild.line_of(KERNEL, 'co1-partial')}" in text, text
    assert "enPartialSum adds onto CO1 element (0, 0), which nothing wrote" in text, text


def test_hf32_rounds_float_inputs_to_eleven_mantissa_bits(tmp_path, soc910b):
    """SetHF32(true, transMode): float32 A and B enter the cube with the low 12 of their 23
    mantissa bits rounded off, ties to even (0) or away from zero (1, MatMulV3's SetHF32(true, 1));
    ops-nn's hf32_truncate_np golden rounds the magnitude half up, as mode 1. One helper rounds
    for Matmul and Mmad (cube_detail::hf32_of), and SetHF32 sets the cube's mode bits as the
    devkit's MatmulImpl does (SetHF32Mode/SetHF32TransMode)."""
    import subprocess

    from opkg.sim import flags

    src = tmp_path / "hf32.cpp"
    src.write_text('#include "kernel_operator.h"\n#include "lib/matmul_intf.h"\n#include <cstdio>\n'
                   "int main() {\n"
                   "    const float ulp = 1.1920929e-7f;   // 2^-23\n"
                   "    const float xs[] = {1.0f + 0x800 * ulp, 1.0f + 0x1800 * ulp, -1.0f - 0x800 * ulp,\n"
                   "                        1.0f + 0x801 * ulp, 1.0f + 0x7FF * ulp};\n"
                   "    for (float x : xs) std::printf(\"%a %a \", AscendC::cube_detail::hf32_of(x, false),\n"
                   "                                  AscendC::cube_detail::hf32_of(x, true));\n"
                   "    AscendC::Matmul<AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>,\n"
                   "                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>,\n"
                   "                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>> mm;\n"
                   "    mm.SetHF32(true, 1);   // the cube's mode bits, as the devkit's MatmulImpl sets them\n"
                   "    std::printf(\"%d%d \", opkg_sim::block().hf32, opkg_sim::block().hf32_ties_away);\n"
                   "    mm.SetHF32(false, 0);\n"
                   "    std::printf(\"%d%d\", opkg_sim::block().hf32, opkg_sim::block().hf32_ties_away);\n"
                   "}\n")
    exe = tmp_path / "hf32"
    cc = subprocess.run(["g++", *flags.common_flags(), *flags.arch_flags(soc910b), "-o", str(exe), str(src),
                         str(flags.runtime_source())],
                        capture_output=True, text=True)
    assert cc.returncode == 0, cc.stderr[-3000:]
    out = subprocess.run([str(exe)], capture_output=True, text=True).stdout.split()
    assert out == ["0x1p+0", "0x1.002p+0",      # a tie on an even value: kept / away from zero
                   "0x1.004p+0", "0x1.004p+0",  # a tie on an odd value: up either way
                   "-0x1p+0", "-0x1.002p+0",    # the sign does not change the magnitude's rounding
                   "0x1.002p+0", "0x1.002p+0",  # above the tie
                   "0x1p+0", "0x1p+0",          # below it
                   "11", "00"]                  # Matmul's SetHF32 sets the block's HF32 bits
