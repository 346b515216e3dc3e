"""The high-level Matmul's dequantisation on the sim: int8 A and B, int32 products, C as half
through SetQuantScalar (one scale) or SetQuantVector (one per column), the scale being the high
19 bits of the float in the value's low 32 bits (CANN's SetQuantScalar documentation); against
NumPy; and a half C with no scale set reported at the IterateAll's line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, TensorSpec
from opkg.sim import runtime
import simbuild

OP = OpSpec(
    "HlMatmulQ",
    (TensorSpec("a", ("int8",)), TensorSpec("b", ("int8",)), TensorSpec("q", ("uint64",))),
    (TensorSpec("c", ("float16",)),),
    (AttrSpec("which", "int", required=True),),
)
M, N, K = 40, 48, 72
KERNEL = Path(__file__).parent / "pkgs" / "hlmatmulq" / "op_kernel" / "hl_matmul_q.cpp"


@pytest.fixture(scope="module")
def built(pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "hlmatmulq", OP, OP.variants()[0], soc910b, lib_cache, stem="hl_matmul_q")


def quant(scales):
    """uint64 quantisation values as CANN's example builds them: the float's bits, zero-extended."""
    return np.asarray(scales, np.float32).view(np.uint32).astype(np.uint64)


def run(built, which, q):
    rng = np.random.default_rng(5)
    a = rng.integers(-128, 128, (M, K), dtype=np.int8)
    b = rng.integers(-128, 128, (K, N), dtype=np.int8)
    c = np.full((M, N), np.nan, np.float16)
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"a": a, "b": b, "q": q}, {"c": c},
                     {"which": which})
    return c, a.astype(np.int64) @ b.astype(np.int64)


def truncated(scales):
    """The scale the hardware reads: the float's sign, exponent and first 10 mantissa bits."""
    bits = np.asarray(scales, np.float32).view(np.uint32) & np.uint32(0xFFFFE000)
    return bits.view(np.float32)


def test_one_scale_for_c(built):
    scale = 0.0123   # not exact in 19 bits: the truncation shows in the result
    got, acc = run(built, 1, quant(np.full(N, scale)))
    want = (acc.astype(np.float32) * truncated(scale)).astype(np.float16)
    np.testing.assert_array_equal(got, want)
    assert not np.array_equal(want, (acc.astype(np.float32) * np.float32(scale)).astype(np.float16))


def test_one_scale_per_column(built):
    scales = np.linspace(0.001, 0.02, N)
    got, acc = run(built, 2, quant(scales))
    want = (acc.astype(np.float32) * truncated(scales)[None, :]).astype(np.float16)
    np.testing.assert_array_equal(got, want)


def test_half_c_without_a_scale_is_reported(built):
    with pytest.raises(runtime.SimError) as e:
        run(built, 3, quant(np.ones(N)))
    line = next(i for i, t in enumerate(KERNEL.read_text().splitlines(), 1) if "@iterate" in t)
    assert f"hl_matmul_q.cpp:{line}" in str(e.value) and "SetQuantScalar" in str(e.value)
