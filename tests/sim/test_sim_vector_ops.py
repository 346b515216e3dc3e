"""Numerics of each vector instruction against NumPy, in float32 and float16.

float16 results must match NumPy computing in float32 and rounding once to float16 (what the
vector unit does); add/sub/mul/div/sqrt and friends are exact, transcendental ones within 1 ulp.
"""

from __future__ import annotations

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, TensorSpec
from opkg.sim import runtime
import simbuild

OP = OpSpec(
    "VecOps",
    (TensorSpec("x", ("float32", "float16")), TensorSpec("y", ("float32", "float16"))),
    (TensorSpec("z", ("float32", "float16")),),
    (AttrSpec("which", "int", required=True), AttrSpec("scalar", "float", 1.5),
     AttrSpec("count", "int", required=True)),
)
PADDED = 1024
COUNT = 1000          # vector ops take any count; only DataCopy needs whole 32-byte blocks


@pytest.fixture(scope="module", params=["float32", "float16"])
def built(request, pkgs, soc910b, lib_cache):
    variant = OP.variant(request.param)
    return simbuild.build(pkgs / "ops", OP, variant, soc910b, lib_cache,
                          stem="vec_ops")


def run(built, which, x, y, scalar=1.5, count=COUNT):
    z = np.full(PADDED, 7, dtype=x.dtype)
    info = runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x, "y": y}, {"z": z},
                            {"which": which, "scalar": scalar, "count": count})
    assert info.tiling_key == which
    return z


def inputs(dtype, low=-2.0, high=2.0, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.uniform(low, high, PADDED).astype(dtype)
    y = rng.uniform(low, high, PADDED).astype(dtype)
    y[np.abs(y) < 0.05] = 0.5      # keep Div well away from zero
    return x, y


def rounded(expr_f32, dtype):
    """NumPy reference: compute in float32, round once to the variant dtype."""
    return np.asarray(expr_f32, dtype=np.float32).astype(dtype)


EXACT_BINARY = {1: np.add, 2: np.subtract, 3: np.multiply, 4: np.divide, 5: np.maximum, 6: np.minimum}


@pytest.mark.parametrize("which", sorted(EXACT_BINARY))
def test_binary_ops_round_once(built, which):
    dtype = np.dtype(built.variant.dtype_of("x")).type
    x, y = inputs(dtype)
    z = run(built, which, x, y)
    want = rounded(EXACT_BINARY[which](x.astype(np.float32), y.astype(np.float32)), dtype)
    np.testing.assert_array_equal(z[:COUNT], want[:COUNT])
    # Elements past `count` keep what Duplicate wrote: the op must not touch them.
    assert np.all(z[COUNT:] == 0)


SCALAR = {10: lambda x, s: x + s, 11: lambda x, s: x * s, 12: np.maximum, 13: np.minimum,
          14: lambda x, s: np.where(x >= 0, x, x * s)}


@pytest.mark.parametrize("which", sorted(SCALAR))
def test_scalar_ops(built, which):
    dtype = np.dtype(built.variant.dtype_of("x")).type
    x, y = inputs(dtype)
    s = np.float32(0.3)
    z = run(built, which, x, y, scalar=float(s))
    s_t = np.float32(dtype(s))    # the kernel converts the scalar to T first
    want = rounded(SCALAR[which](x.astype(np.float32), s_t), dtype)
    np.testing.assert_array_equal(z[:COUNT], want[:COUNT])


EXACT_UNARY = {22: np.abs, 23: np.sqrt, 25: lambda v: np.float32(1) / v,
               26: lambda v: np.maximum(v, np.float32(0))}
APPROX_UNARY = {20: np.exp, 21: np.log, 24: lambda v: np.float32(1) / np.sqrt(v)}


@pytest.mark.parametrize("which", sorted(EXACT_UNARY))
def test_exact_unary_ops(built, which):
    dtype = np.dtype(built.variant.dtype_of("x")).type
    x, y = inputs(dtype, 0.1, 4.0) if which in (23, 25) else inputs(dtype)
    z = run(built, which, x, y)
    np.testing.assert_array_equal(z[:COUNT], rounded(EXACT_UNARY[which](x.astype(np.float32)), dtype)[:COUNT])


@pytest.mark.parametrize("which", sorted(APPROX_UNARY))
def test_transcendental_ops_within_one_ulp(built, which):
    dtype = np.dtype(built.variant.dtype_of("x")).type
    x, y = inputs(dtype, 0.1, 4.0)
    z = run(built, which, x, y)
    want = APPROX_UNARY[which](x.astype(np.float64)).astype(dtype)
    ulps = np.abs(z[:COUNT].astype(np.float64) - want[:COUNT]) / np.spacing(want[:COUNT]).astype(np.float64)
    assert ulps.max() <= 1.0


def test_duplicate(built):
    dtype = np.dtype(built.variant.dtype_of("x")).type
    x, y = inputs(dtype)
    z = run(built, 30, x, y, scalar=-0.75)
    assert np.all(z[:COUNT] == dtype(-0.75)) and np.all(z[COUNT:] == 0)


def test_reduce_sum_is_close_to_the_exact_sum(built):
    dtype = np.dtype(built.variant.dtype_of("x")).type
    x, y = inputs(dtype, 0.0, 1.0)
    z = run(built, 40, x, y)
    exact = x[:COUNT].astype(np.float64).sum()
    # A pairwise tree in the operand precision: error grows with log2(n) roundings.
    eps = float(np.finfo(dtype).eps)
    assert abs(float(z[0]) - exact) <= exact * eps * 12
    assert np.all(z[1:] == 0)


def test_reduce_sum_rounds_each_partial_sum(built):
    # [big, 1, 1, 0] with big = 2**(mantissa bits + 1): the tree adds (big + 1) -> big (a tie,
    # rounded to even) and (1 + 0), then big + 1 -> big. Exact or wider accumulation gives big + 2.
    dtype = np.dtype(built.variant.dtype_of("x")).type
    big = 2.0 ** (np.finfo(dtype).nmant + 1)
    x = np.zeros(PADDED, dtype)
    x[:4] = [big, 1, 1, 0]
    z = run(built, 40, x, x.copy(), count=4)
    assert float(z[0]) == big


def test_reduce_max_and_min(built):
    dtype = np.dtype(built.variant.dtype_of("x")).type
    x, y = inputs(dtype)
    assert run(built, 41, x, y)[0] == x[:COUNT].max()
    assert run(built, 42, x, y)[0] == x[:COUNT].min()


def test_cast_round_trips(built):
    dtype = np.dtype(built.variant.dtype_of("x")).type
    x, y = inputs(dtype)
    z = run(built, 50, x, y, scalar=3.0)
    if dtype == np.float16:
        want = (x.astype(np.float32) * np.float32(3.0)).astype(np.float16)
    else:
        want = x.astype(np.float16).astype(np.float32)     # CAST_RINT: nearest even
    np.testing.assert_array_equal(z[:COUNT], want[:COUNT])


@pytest.fixture(scope="module")
def built32(pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "ops", OP, OP.variant("float32"), soc910b, lib_cache,
                          stem="vec_ops")


def test_cast_directed_rounding(built32):
    built = built32
    x, y = inputs(np.float32, -100.0, 100.0)
    z = run(built, 51, x, y)           # CAST_FLOOR to float16: never above x
    h = z[:COUNT]
    assert np.all(h <= x[:COUNT])
    nearest = x[:COUNT].astype(np.float16).astype(np.float32)
    assert np.all((h == nearest) | (h == np.nextafter(nearest.astype(np.float16), np.float16(-np.inf)).astype(np.float32)))
    assert np.any(h != nearest)
    z = run(built, 52, x, y)           # CAST_ROUND to int32: half away from zero
    np.testing.assert_array_equal(z[:COUNT], np.trunc(x[:COUNT] + np.copysign(0.5, x[:COUNT])))


# RoundMode values (ktypes.h order) and what a float -> float Cast (vconv_f322f32*) makes of x
FLOAT_ROUNDING = {1: np.rint, 2: np.floor, 3: np.ceil,
                  4: lambda v: np.trunc(v + np.copysign(np.float32(0.5), v)), 5: np.trunc}


@pytest.mark.parametrize("which", [53, 54])
@pytest.mark.parametrize("mode", sorted(FLOAT_ROUNDING))
def test_cast_float_to_float_rounds_to_integral_values(built32, which, mode):
    x, y = inputs(np.float32, -100.0, 100.0)
    x[:8] = [2.5, -2.5, 3.5, -0.5, 0.5, 7.0, -0.0, 1e9]    # ties, an integer, -0, a large value
    count = COUNT // 64 * 64 if which == 54 else COUNT
    z = run(built32, which, x, y, scalar=float(mode), count=count)
    np.testing.assert_array_equal(z[:count], FLOAT_ROUNDING[mode](x[:count]).astype(np.float32))


def test_axpy(built):
    dtype = np.dtype(built.variant.dtype_of("x")).type
    x, y = inputs(dtype)
    z = run(built, 60, x, y, scalar=0.5)
    prod = rounded(x.astype(np.float32) * np.float32(0.5), dtype).astype(np.float32)
    np.testing.assert_array_equal(z[:COUNT], rounded(prod + y.astype(np.float32), dtype)[:COUNT])


def test_ub_to_ub_copy_and_scalar_access(built):
    dtype = np.dtype(built.variant.dtype_of("x")).type
    x, y = inputs(dtype)
    z = run(built, 61, x, y)
    np.testing.assert_array_equal(z[:COUNT], x[:COUNT][::-1])


def level0_index(dtype, repeat, j, blk, rep):
    """Element index of element j of repeat `repeat` under level-0 strides (in elements)."""
    per_block = 32 // np.dtype(dtype).itemsize
    return repeat * rep * per_block + (j // per_block) * blk * per_block + j % per_block


def test_level0_continuous_mask(built):
    dtype = np.dtype(built.variant.dtype_of("x")).type
    x, y = inputs(dtype)
    z = run(built, 70, x, y)
    per_repeat = 256 // np.dtype(dtype).itemsize
    want = np.zeros(PADDED, dtype)
    for r in range(4):
        idx = [level0_index(dtype, r, j, 1, 8) for j in range(per_repeat // 2)]
        want[idx] = rounded(x[idx].astype(np.float32) + y[idx].astype(np.float32), dtype)
    np.testing.assert_array_equal(z, want)


def test_level0_bit_mask_and_repeat_stride(built):
    dtype = np.dtype(built.variant.dtype_of("x")).type
    x, y = inputs(dtype)
    z = run(built, 71, x, y)
    per_repeat = 256 // np.dtype(dtype).itemsize
    want = np.zeros(PADDED, dtype)
    for r in range(2):
        for j in range(0, per_repeat, 2):
            src = level0_index(dtype, r, j, 1, 8)
            want[level0_index(dtype, r, j, 1, 16)] = rounded(np.float32(x[src]) * np.float32(y[src]), dtype)
    np.testing.assert_array_equal(z, want)


def test_level0_unary_block_stride(built):
    dtype = np.dtype(built.variant.dtype_of("x")).type
    x, y = inputs(dtype)
    z = run(built, 72, x, y, scalar=2.0)
    per_repeat = 256 // np.dtype(dtype).itemsize
    want = np.zeros(PADDED, dtype)
    for r in range(2):
        for j in range(per_repeat):
            want[level0_index(dtype, r, j, 1, 8)] = x[level0_index(dtype, r, j, 2, 16)] * dtype(2)
    np.testing.assert_array_equal(z, want)


def test_compare_and_select(built):
    dtype = np.dtype(built.variant.dtype_of("x")).type
    x, y = inputs(dtype)
    z = run(built, 73, x, y)
    np.testing.assert_array_equal(z[:COUNT], np.where(x < y, x, y)[:COUNT])
    z = run(built, 74, x, y, scalar=0.5)
    np.testing.assert_array_equal(z[:COUNT], np.where(x > dtype(0.5), x, dtype(-1))[:COUNT])


def test_datacopy_pad_moves_exactly_the_bytes_asked(built):
    dtype = np.dtype(built.variant.dtype_of("x")).type
    x, y = inputs(dtype)
    n = 1000     # 4000 (float32) or 2000 (float16) bytes: not whole 32-byte blocks
    z = run(built, 80, x, y, scalar=-3.0, count=n)
    np.testing.assert_array_equal(z[:n], x[:n])
    np.testing.assert_array_equal(z[n:n + 8], np.full(8, dtype(-3.0)))     # right padding from UB
    assert np.all(z[n + 8:] == 7)                                          # untouched GM


def test_datacopy_pad_strided_rows_to_gm(built):
    dtype = np.dtype(built.variant.dtype_of("x")).type
    x, y = inputs(dtype)
    n = 200
    z = run(built, 81, x, y, count=n)
    half_n = n // 2
    # Row 0 from UB offset 0, row 1 from the next 32-byte aligned UB row, one element gap in GM.
    per_block = 32 // np.dtype(dtype).itemsize
    row_ub = -(-half_n // per_block) * per_block
    np.testing.assert_array_equal(z[:half_n], x[:half_n])
    assert z[half_n] == 7
    np.testing.assert_array_equal(z[half_n + 1:n + 1], x[row_ub:row_ub + half_n])
    assert np.all(z[n + 1:] == 7)


def test_whole_reduce_sum(built):
    dtype = np.dtype(built.variant.dtype_of("x")).type
    rng = np.random.default_rng(3)
    x = rng.integers(0, 16, PADDED).astype(dtype)     # small integers: every partial sum is exact
    z = run(built, 90, x, x.copy())
    per = 256 // np.dtype(dtype).itemsize
    sums = [x[r * per:(r + 1) * per].astype(np.float64).sum() for r in range(3)]
    assert [z[0], z[2], z[4]] == sums
    assert z[1] == 0 and z[3] == 0
    assert z[8] == x[3 * per:3 * per + per // 2].astype(np.float64).sum()


def test_datacopypad_does_not_compile_for_socs_without_it(pkgs, lib_cache):
    """310P (and 910A) have no DataCopyPad instruction: bisheng rejects such a kernel, and so
    does the sim, at compile time with a message that says what to do."""
    from opkg.core.socs import get_soc

    with pytest.raises(simbuild.CompileError, match="DataCopyPad does not exist on this SoC"):
        simbuild.build(pkgs / "ops", OP, OP.variant("float32"), get_soc("Ascend310P3"), lib_cache,
                       stem="vec_ops")
