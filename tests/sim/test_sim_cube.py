"""The cube basic APIs (opkg/sim/include/opkg_sim/basic_api/cube/cube.h): Nd2Nz DataCopy, LoadData 2D with and
without transpose, Mmad (fp16/bf16/fp32 -> fp32, int8 -> int32, init and accumulate), Fixpipe to
ND and NZ, against NumPy; and each misuse reported at the kernel's file:line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, TensorSpec, numpy_dtype
from opkg.sim import runtime
import simbuild

OP = OpSpec(
    "CubeApi",
    (TensorSpec("a", ("float16", "bfloat16", "int8", "float32")),
     TensorSpec("b", ("float16", "bfloat16", "int8", "float32"))),
    (TensorSpec("c", ("float32", "float32", "int32", "float32")),),
    (AttrSpec("which", "int", required=True), AttrSpec("m", "int", required=True),
     AttrSpec("n", "int", required=True), AttrSpec("k", "int", required=True)),
)
KERNEL = Path(__file__).parent / "pkgs" / "cubeapi" / "op_kernel" / "cube_api.cpp"


@pytest.fixture(scope="module", params=["float16_float32", "bfloat16_float32", "int8_int32", "float32"])
def built(request, pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "cubeapi", OP, OP.variant(request.param), soc910b, lib_cache, stem="cube_api")


@pytest.fixture(scope="module")
def fp16(pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "cubeapi", OP, OP.variant("float16_float32"), soc910b, lib_cache, stem="cube_api")


def operands(built, m, n, k, seed=1):
    rng = np.random.default_rng(seed)
    name = built.variant.dtype_of("a")
    if name == "int8":
        a = rng.integers(-128, 128, (m, k), dtype=np.int8)
        b = rng.integers(-128, 128, (k, n), dtype=np.int8)
        return a, b, a.astype(np.int64) @ b.astype(np.int64)
    dtype = {"float16": np.float16, "float32": np.float32}.get(name)
    if dtype is None:   # bfloat16: keep values bf16 can hold exactly (8 significant bits)
        a = (rng.integers(-64, 64, (m, k)) / 16).astype(np.float32)
        b = (rng.integers(-64, 64, (k, n)) / 16).astype(np.float32)
        bf16 = numpy_dtype("bfloat16")
        return a.astype(bf16), b.astype(bf16), a.astype(np.float64) @ b.astype(np.float64)
    a = rng.uniform(-1, 1, (m, k)).astype(dtype)
    b = rng.uniform(-1, 1, (k, n)).astype(dtype)
    return a, b, a.astype(np.float64) @ b.astype(np.float64)


def run(built, which, m, n, k, a, b):
    out = np.dtype(built.variant.dtype_of("c"))
    c = np.full(m * n, np.iinfo(out).min if out.kind == "i" else np.nan, dtype=out)
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"a": a.ravel(), "b": b.ravel()},
                     {"c": c}, {"which": which, "m": m, "n": n, "k": k})
    return c


def check(built, got, want):
    if got.dtype.kind == "i":
        np.testing.assert_array_equal(got, want.astype(got.dtype))
    else:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("m,n,k", [(16, 16, 64), (33, 47, 70), (128, 64, 96), (1, 5, 3)])
def test_one_iteration_with_b_given_transposed(built, m, n, k):
    a, b, want = operands(built, m, n, k)
    got = run(built, 3, m, n, k, a, np.ascontiguousarray(b.T))
    check(built, got.reshape(m, n), want)


def _cpu_has(flag: str) -> bool:
    try:
        return any(line.startswith("flags") and flag in line.split()
                   for line in Path("/proc/cpuinfo").read_text().splitlines())
    except OSError:
        return False


@pytest.mark.parametrize("isa", ["avx512", "avx2", "base"])
@pytest.mark.parametrize("m,n,k", [(33, 47, 70), (128, 64, 96)])
def test_mmad_sums_over_k_in_order_to_the_bit(built, monkeypatch, isa, m, n, k):
    # Mmad's register-blocked product (cube_gemm.h) at each vector width the CPU has: each element
    # is the float32 sum of its products taken in k order, each product and sum rounded, as a
    # scalar loop computes it (int8: the exact int32 sum)
    if isa != "base" and not _cpu_has({"avx512": "avx512f", "avx2": "avx2"}[isa]):
        pytest.skip(f"this CPU has no {isa}")
    monkeypatch.setenv("OPKG_SIM_GEMM", isa)
    a, b, exact = operands(built, m, n, k, seed=6)
    got = run(built, 3, m, n, k, a, np.ascontiguousarray(b.T)).reshape(m, n)
    if got.dtype.kind == "i":
        np.testing.assert_array_equal(got, exact.astype(np.int32))
        return
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    want = np.zeros((m, n), np.float32)
    for kk in range(k):
        want += a32[:, kk:kk + 1] * b32[kk:kk + 1, :]
    np.testing.assert_array_equal(got, want)


def test_profile_counts_cube_flops(fp16):
    m, n, k = 33, 47, 64
    a, b, _ = operands(fp16, m, n, k)
    c = np.full(m * n, np.nan, np.float32)
    info = runtime.run_case(fp16.host, fp16.kernel, OP, fp16.variant, fp16.soc,
                            {"a": a.ravel(), "b": np.ascontiguousarray(b.T).ravel()}, {"c": c},
                            {"which": 2, "m": m, "n": n, "k": k})
    # key 2: K in two Mmads of 32; each counts its exact m x n x k (m and n not padded to 16)
    assert info.profile["cube"] == {"calls": 2, "flops": 2 * m * n * k, "busiest_block_flops": 2 * m * n * k}


def test_k_in_two_iterations_accumulates_in_co1(built):
    c0 = 32 // numpy_dtype(built.variant.dtype_of("a")).itemsize
    m, n, k = 40, 24, 4 * c0
    a, b, want = operands(built, m, n, k, seed=2)
    got = run(built, 2, m, n, k, a, np.ascontiguousarray(b.T))
    check(built, got.reshape(m, n), want)


@pytest.mark.parametrize("m,n,k", [(16, 32, 32), (45, 17, 29)])
def test_b_loaded_with_transpose(fp16, m, n, k):
    a, b, want = operands(fp16, m, n, k, seed=3)
    got = run(fp16, 1, m, n, k, a, b)
    check(fp16, got.reshape(m, n), want)


@pytest.mark.parametrize("which", [4, 36], ids=["FixpipeParamsV220", "FixpipeParams<T>"])
def test_fixpipe_nz_keeps_16_column_blocks(fp16, which):
    m, n, k = 20, 32, 16
    a, b, want = operands(fp16, m, n, k, seed=4)
    got = run(fp16, which, m, n, k, a, np.ascontiguousarray(b.T))
    # NZ: n / 16 blocks of m rows x 16 columns
    nz = got.reshape(n // 16, m, 16).transpose(1, 0, 2).reshape(m, n)
    check(fp16, nz, want)


@pytest.mark.parametrize("m,n,k", [(16, 16, 64), (33, 47, 70)])
def test_fixpipe_earlier_parameter_form_to_nd(built, m, n, k):
    # FixpipeParams<T> (cburstNum, burstLen, gaps, NZ2ND), as dav_c220's FixpipeInfoParams reads it
    a, b, want = operands(built, m, n, k)
    got = run(built, 35, m, n, k, a, np.ascontiguousarray(b.T))
    check(built, got.reshape(m, n), want)


@pytest.mark.parametrize("m,n,k", [(32, 32, 64), (20, 45, 70)])
def test_bias_through_c1_and_the_bias_table_starts_the_mmad(fp16, m, n, k):
    a, b, want = operands(fp16, m, n, k, seed=5)
    got = run(fp16, 5, m, n, k, a, np.ascontiguousarray(b.T))
    # the kernel's bias is the first n elements of a, converted half -> float into C2
    check(fp16, got.reshape(m, n), want + a.ravel()[:n].astype(np.float64))


@pytest.mark.parametrize("key", [7, 8])
def test_float_bias_through_plain_copies_to_c1_and_c2(pkgs, soc910b, lib_cache, key):
    """GM -> C1 and the same-type C1 -> C2 with the plain DataCopy (count form for 7,
    DataCopyParams for 8), as CANN dispatches them on the tensors' positions."""
    fp32 = simbuild.build(pkgs / "cubeapi", OP, OP.variant("float32"), soc910b, lib_cache, stem="cube_api")
    m, n, k = 20, 40, 24
    a, b, want = operands(fp32, m, n, k, seed=9)
    got = run(fp32, key, m, n, k, a, np.ascontiguousarray(b.T))
    check(fp32, got.reshape(m, n), want + a.ravel()[:n].astype(np.float64))


def test_float_bias_count_not_whole_bursts_is_refused(pkgs, soc910b, lib_cache):
    fp32 = simbuild.build(pkgs / "cubeapi", OP, OP.variant("float32"), soc910b, lib_cache, stem="cube_api")
    m, n, k = 20, 40, 24
    a, b, _ = operands(fp32, m, n, k)
    with pytest.raises(runtime.SimError) as err:
        run(fp32, 22, m, n, k, a, np.ascontiguousarray(b.T))
    text = str(err.value)
    assert f"cube_api.cpp:{simbuild.line_of(KERNEL, 'bias-count')}" in text, text
    assert "40 float elements = 160 bytes, which is not a multiple of 64 bytes" in text, text


def test_fixpipe_deqf16_scales_int32_into_half(pkgs, soc910b, lib_cache):
    int8 = simbuild.build(pkgs / "cubeapi", OP, OP.variant("int8_int32"), soc910b, lib_cache, stem="cube_api")
    m, n, k = 20, 48, 64
    a, b, want = operands(int8, m, n, k, seed=7)
    got = run(int8, 6, m, n, k, a, np.ascontiguousarray(b.T))
    halves = got.view(np.float16)[:m * n].reshape(m, n)
    # int32 x the scale in float, rounded once to half; the hardware reads the scale as (1, 8, 10)
    # bits (CANN's on-the-fly quantisation table), so 0.0123 loses its low 13 mantissa bits
    scale = (np.array([0.0123], np.float32).view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)[0]
    assert scale != np.float32(0.0123)
    np.testing.assert_array_equal(halves, (want.astype(np.float32) * scale).astype(np.float16))
    with pytest.raises(runtime.SimError) as err:
        run(int8, 21, m, n, k, a, np.ascontiguousarray(b.T))
    assert f"cube_api.cpp:{simbuild.line_of(KERNEL, 'deq')}" in str(err.value)
    assert "int32_t CO1 -> half output needs quantPre = QuantMode_t::DEQF16" in str(err.value)


def test_tensors_made_by_address_in_l0a_and_l0b(fp16):
    # LocalTensor(TPosition::A2/B2, addr, size): the cube buffers' bytes at that address
    m, n, k = 33, 47, 70
    a, b, want = operands(fp16, m, n, k, seed=5)
    check(fp16, run(fp16, 39, m, n, k, a, np.ascontiguousarray(b.T)).reshape(m, n), want)


def test_a_co1_tensor_never_given_an_address_is_byte_0_with_a_warning(fp16):
    # ops-nn's gemm_v3 never assigns its L0C tensor (a default-constructed LocalTensor, whose
    # address the devkit leaves unset): Mmad and Fixpipe take byte 0 of L0C, with a warning at the
    # first use; --strict-bounds refuses it
    from opkg.core.model import SimModes

    m, n, k = 20, 40, 24
    a, b, want = operands(fp16, m, n, k, seed=7)
    c = np.full(m * n, np.nan, np.float32)
    args = (fp16.host, fp16.kernel, OP, fp16.variant, fp16.soc, {"a": a.ravel(), "b": np.ascontiguousarray(b.T).ravel()},
            {"c": c}, {"which": 41, "m": m, "n": n, "k": k})
    info = runtime.run_case(*args)
    check(fp16, c.reshape(m, n), want)
    at = f"cube_api.cpp:{simbuild.line_of(KERNEL, 'mmad')}: Mmad: dst (CO1) is a LocalTensor never given an address"
    assert [l for l in info.log if "warning:" in l and at in l], info.log
    with pytest.raises(runtime.SimError) as err:
        runtime.run_case(*args, modes=SimModes(strict_bounds=True))
    assert "dst (CO1) is a LocalTensor that was never allocated" in str(err.value)


def test_datacopy_co1_to_gm_through_the_fixpipe_registers(fp16, pkgs, soc910b, lib_cache):
    # NZ2ND from SetFixpipeNz2ndFlag: the same C as Fixpipe's; one matrix with both strides 0 (unused,
    # as ops-nn's gemm_v3 sets them)
    m, n, k = 20, 48, 64
    a, b, want = operands(fp16, m, n, k, seed=3)
    got = run(fp16, 25, m, n, k, a, np.ascontiguousarray(b.T))
    check(fp16, got.reshape(m, n), want)
    # int32 -> half with the scale from SetFixpipePreQuantFlag (its low 13 mantissa bits dropped),
    # then ReLU (reluPre 1)
    int8 = simbuild.build(pkgs / "cubeapi", OP, OP.variant("int8_int32"), soc910b, lib_cache, stem="cube_api")
    a, b, want = operands(int8, m, n, k, seed=7)
    got = run(int8, 26, m, n, k, a, np.ascontiguousarray(b.T))
    halves = got.view(np.float16)[:m * n].reshape(m, n)
    scale = (np.array([0.0123], np.float32).view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)[0]
    np.testing.assert_array_equal(halves, np.maximum(want.astype(np.float32) * scale, 0).astype(np.float16))
    assert (want < 0).any()
    a, b, _ = operands(fp16, m, n, k)
    with pytest.raises(runtime.SimError) as err:
        run(fp16, 27, m, n, k, a, np.ascontiguousarray(b.T))
    assert f"cube_api.cpp:{simbuild.line_of(KERNEL, 'co12')}" in str(err.value)
    assert "nz2ndEn without a SetFixpipeNz2ndFlag" in str(err.value)


def test_transpose_load_of_one_byte_type_is_refused(pkgs, soc910b, lib_cache):
    int8 = simbuild.build(pkgs / "cubeapi", OP, OP.variant("int8_int32"), soc910b, lib_cache, stem="cube_api")
    a, b, _ = operands(int8, 16, 32, 32)
    with pytest.raises(runtime.SimError) as err:
        run(int8, 1, 16, 32, 32, a, b)
    assert f"cube_api.cpp:{simbuild.line_of(KERNEL, 'transpose')}" in str(err.value)
    assert "LoadDataWithTranspose" in str(err.value)


@pytest.mark.parametrize("which,marker,words", [
    (10, "l0a-overflow", ["L0A overflow", "65536 bytes"]),
    (15, "l1-overflow", ["L1 overflow", "524288 bytes"]),
    (23, "l0b-overflow", ["L0B overflow", "65536 bytes"]),
    (24, "l0c-overflow", ["L0C overflow", "131072 bytes"]),
    (11, "mmad", ["the K of A and the k given to Mmad disagree"]),
    (17, "mmad", ["B2 elements", "never loaded"]),
    (13, "misaligned", ["not 512-byte aligned", "fractal"]),
    (14, "mmad", ["cmatrixInitVal = true"]),
    (12, "fixpipe", ["no Mmad wrote"]),
    (18, "plain-copy", ["DataCopyPad", "tensor of the L1 (position A1), not of the Unified Buffer"]),
    (19, "bias-mmad", ["bias values that were never loaded into the bias table"]),
    (20, "bias-copy", ["DataCopy C1->C2 (bias table)", "source (C1) needs 192 bytes", "32 half elements"]),
    (37, "l0c-to-ub", ["DataCopy with DataCopyEnhancedParams from CO1", "no copy between L0C and the Unified Buffer"]),
])
def test_misuse_is_reported_at_its_line(fp16, which, marker, words):
    m, n, k = 32, 32, 64
    a, b, _ = operands(fp16, m, n, k)
    with pytest.raises(runtime.SimError) as err:
        run(fp16, which, m, n, k, a, np.ascontiguousarray(b.T))
    text = str(err.value)
    assert f"cube_api.cpp:{simbuild.line_of(KERNEL, marker)}" in text, text
    for w in words:
        assert w in text, text
