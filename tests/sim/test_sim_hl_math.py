"""The high-level math library (lib/math, Sigmoid) on the sim: each API against NumPy per dtype
over edge values, the overload forms (sharedTmpBuffer or not, calCount or whole tensor, called
through a function pointer as cann-ops' foreach kernels do), and the temporary-space and
calCount diagnostics with the kernel's file:line.

The sim computes each function exactly (double) and rounds once to the dtype, so the reference
is float64 NumPy rounded once: results must match to the last bit except where libm and NumPy
differ by an ulp of the double result.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, SimModes, TensorSpec
from opkg.sim import runtime
import simbuild

OP = OpSpec(
    "HlMath",
    (TensorSpec("x", ("float32", "float16")), TensorSpec("y", ("float32", "float16"))),
    (TensorSpec("z", ("float32", "float16")),),
    (AttrSpec("which", "int", required=True), AttrSpec("count", "int", required=True),
     AttrSpec("tmp_bytes", "int", required=True), AttrSpec("scalar", "float", 1.5)),
)
PADDED = 1024



@pytest.fixture(scope="module", params=["float32", "float16"])
def built(request, pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "hlmath", OP, OP.variant(request.param), soc910b, lib_cache, stem="hl_math")


def dtype_of(built):
    return np.dtype(built.variant.dtype_of("x")).type


def run(built, which, x, count=None, tmp_bytes=4096, y=None, modes=SimModes()):
    count = len(x) if count is None else count
    xs = np.zeros(PADDED, dtype=x.dtype)
    xs[: len(x)] = x
    ys = np.zeros(PADDED, dtype=x.dtype) if y is None else y
    z = np.full(PADDED, 7, dtype=x.dtype)
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": xs, "y": ys}, {"z": z},
                     {"which": which, "count": count, "tmp_bytes": tmp_bytes}, modes=modes)
    return z


def edge_values(dtype, low, high):
    """Edge values first (±0, smallest subnormal, ±inf, NaN, the largest finite), then a spread
    over [low, high] and large magnitudes."""
    info = np.finfo(dtype)
    edges = [0.0, -0.0, float(info.smallest_subnormal), -float(info.smallest_subnormal), math.inf, -math.inf,
             math.nan, float(info.max), -float(info.max), 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 1e4, -1e4]
    rng = np.random.default_rng(7)
    spread = rng.uniform(low, high, 600)
    return np.array(edges + list(spread), dtype=np.float64).astype(dtype)


def digamma(v):
    """Reference digamma from the recurrence and the asymptotic series (no SciPy needed)."""
    def one(x):
        if math.isnan(x) or x == -math.inf:
            return math.nan
        if x == math.inf:
            return math.inf
        if x == 0:
            return -math.copysign(math.inf, x)
        if x < 0:
            if x == math.floor(x):
                return math.nan
            return one(1 - x) - math.pi / math.tan(math.pi * x)
        r = 0.0
        while x < 20:
            r -= 1 / x
            x += 1
        i2 = 1 / (x * x)
        return r + math.log(x) - 0.5 / x - i2 * (1 / 12 - i2 * (1 / 120 - i2 * (1 / 252)))
    return np.array([one(float(x)) for x in v])


def sign(x):
    return np.where(np.isnan(x), x, np.sign(x))


# which -> (reference in float64, spread of test values)
UNARY = {
    1: ("Sin", np.sin, (-10, 10)), 2: ("Cos", np.cos, (-10, 10)), 3: ("Tan", np.tan, (-1.5, 1.5)),
    4: ("Asin", np.arcsin, (-1.2, 1.2)), 5: ("Acos", np.arccos, (-1.2, 1.2)), 6: ("Atan", np.arctan, (-50, 50)),
    7: ("Sinh", np.sinh, (-12, 12)), 8: ("Cosh", np.cosh, (-12, 12)), 9: ("Tanh", np.tanh, (-10, 10)),
    10: ("Asinh", np.arcsinh, (-100, 100)), 11: ("Acosh", np.arccosh, (0.5, 100)),
    12: ("Atanh", np.arctanh, (-1.1, 1.1)),
    13: ("Erf", np.vectorize(math.erf, otypes=[float]), (-4, 4)),
    14: ("Erfc", np.vectorize(math.erfc, otypes=[float]), (-4, 10)),
    15: ("Digamma", digamma, (-5.5, 30)), 16: ("Lgamma", None, (-5.5, 30)),
    17: ("Floor", np.floor, (-100, 100)), 18: ("Ceil", np.ceil, (-100, 100)), 19: ("Round", np.rint, (-100, 100)),
    20: ("Trunc", np.trunc, (-100, 100)), 21: ("Frac", lambda x: x - np.trunc(x), (-100, 100)),
    22: ("Sign", sign, (-3, 3)), 23: ("Log2", np.log2, (-1, 1000)),
    24: ("Sigmoid", lambda x: 1 / (1 + np.exp(-x)), (-20, 20)),
    25: ("Log", np.log, (-1, 1000)), 26: ("Log10", np.log10, (-1, 1000)),
}


def lgamma(v):
    def one(x):
        if math.isnan(x):
            return x
        if math.isinf(x):
            return math.inf
        try:
            return math.lgamma(x)
        except ValueError:      # poles: 0 and the negative integers
            return math.inf
    return np.array([one(float(x)) for x in v])


def reference(which, x, dtype):
    name, f, _ = UNARY[which]
    with np.errstate(all="ignore"):     # overflow to inf is part of the reference
        exact = (lgamma if name == "Lgamma" else f)(x.astype(np.float64))
        return np.asarray(exact, dtype=np.float64).astype(np.float32).astype(dtype)


def assert_matches(got, want, dtype, name, ulps):
    got64, want64 = got.astype(np.float64), want.astype(np.float64)
    both_nan = np.isnan(got64) & np.isnan(want64)
    same = (got64 == want64) | both_nan
    eps = float(np.finfo(dtype).eps)
    with np.errstate(invalid="ignore"):     # inf - inf where both are infinite
        close = np.abs(got64 - want64) <= ulps * eps * np.maximum(np.abs(want64), float(np.finfo(dtype).tiny))
    bad = ~(same | close)
    assert not bad.any(), f"{name}: {int(bad.sum())} mismatches, first at {np.flatnonzero(bad)[:5]}: " \
        f"got {got[bad][:5]}, want {want[bad][:5]}"


@pytest.mark.parametrize("which", sorted(UNARY))
def test_unary_matches_numpy_on_edge_values(built, which):
    dtype = dtype_of(built)
    name, _, (low, high) = UNARY[which]
    x = edge_values(dtype, low, high)
    z = run(built, which, x, tmp_bytes=-1 if which in (25, 26) else 4096)
    assert_matches(z[: len(x)], reference(which, x, dtype), dtype, name, ulps=1)
    # calCount bounds what is written.
    assert np.all(z[len(x):] == 0)


@pytest.mark.parametrize("which", [1, 9, 13, 24])
def test_form_without_shared_tmp_buffer_uses_the_free_ub(built, which):
    dtype = dtype_of(built)
    x = edge_values(dtype, -3, 3)
    np.testing.assert_array_equal(run(built, which, x, tmp_bytes=-1)[: len(x)], run(built, which, x)[: len(x)])


def test_whole_tensor_forms(built):
    dtype = dtype_of(built)
    x = np.linspace(-3, 3, PADDED).astype(dtype)
    want = reference(9, x, dtype)
    np.testing.assert_array_equal(run(built, 30, x, count=PADDED), want)
    np.testing.assert_array_equal(run(built, 31, x, count=PADDED), want)


@pytest.mark.parametrize("which,ref", [(40, 1), (41, 9)])
def test_apis_pass_as_function_pointers(built, which, ref):
    """cann-ops' foreach kernels take `Sin<T, false>` as a template argument of the exact CANN
    function type: the sim declares that signature too."""
    dtype = dtype_of(built)
    x = edge_values(dtype, -5, 5)
    z = run(built, which, x)
    assert_matches(z[: len(x)], reference(ref, x, dtype), dtype, "pointer", ulps=1)


def kernel_path(built):
    return simbuild.Path(__file__).parent / "pkgs" / "hlmath" / "op_kernel" / "hl_math.cpp"


def test_shared_tmp_buffer_below_the_minimum_is_reported(built):
    dtype = dtype_of(built)
    need = (4 if dtype == np.float16 else 3) * 128
    x = np.ones(64, dtype=dtype)
    with pytest.raises(runtime.SimError) as err:
        run(built, 90, x, tmp_bytes=need - 32)
    msg = str(err.value)
    line = simbuild.line_of(kernel_path(built), "sin-tmp")
    assert f"hl_math.cpp:{line}" in msg
    assert f"sharedTmpBuffer holds {need - 32} bytes" in msg and f"at least {need} bytes" in msg
    assert err.value.block == 0
    run(built, 90, x, tmp_bytes=need)      # the minimum itself is enough


def test_form_without_tmp_fails_when_init_buffer_left_too_little_ub(built):
    dtype = dtype_of(built)
    itemsize = np.dtype(dtype).itemsize
    taken = 3 * PADDED * itemsize
    left = 256      # less than Erf's minimum for either dtype (float 3 x 128, half 8 x 128)
    x = np.ones(64, dtype=dtype)
    with pytest.raises(runtime.SimError) as err:
        run(built, 91, x, tmp_bytes=built.soc.ub_bytes - taken - left)
    msg = str(err.value)
    assert f"hl_math.cpp:{simbuild.line_of(kernel_path(built), 'erf-stack')}" in msg
    assert f"{left} bytes are left" in msg


def test_cal_count_past_the_tensor_is_reported(built):
    # inside the UB the device runs on (a warning, tests/sim/test_sim_ub_past_tensor.py);
    # --strict-bounds makes it an error
    dtype = dtype_of(built)
    with pytest.raises(runtime.SimError) as err:
        run(built, 92, np.ones(8, dtype=dtype), count=PADDED + 32, modes=SimModes(strict_bounds=True))
    msg = str(err.value)
    assert f"hl_math.cpp:{simbuild.line_of(kernel_path(built), 'atan-count')}" in msg
    assert f"calCount {PADDED + 32} is larger than dst's {PADDED} elements" in msg


def run2(built, which, x, y, scalar, tmp_bytes=4096):
    xs = np.zeros(PADDED, dtype=x.dtype)
    ys = np.zeros(PADDED, dtype=x.dtype)
    xs[: len(x)] = x
    ys[: len(y)] = y
    z = np.full(PADDED, 7, dtype=x.dtype)
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": xs, "y": ys}, {"z": z},
                     {"which": which, "count": len(x), "tmp_bytes": tmp_bytes, "scalar": scalar})
    return z[: len(x)]


def once(v, dtype):
    with np.errstate(all="ignore"):
        return np.asarray(v, dtype=np.float64).astype(np.float32).astype(dtype)


@pytest.mark.parametrize("tmp_bytes", [4096, -1])
def test_power_forms(built, tmp_bytes):
    dtype = dtype_of(built)
    x = edge_values(dtype, 0, 4)
    y = np.resize(np.array([0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.0, -2.5, math.inf, -math.inf, math.nan], dtype), len(x))
    x64, y64 = x.astype(np.float64), y.astype(np.float64)
    with np.errstate(all="ignore"):
        assert_matches(run2(built, 50, x, y, 1.5, tmp_bytes), once(np.power(x64, y64), dtype), dtype, "Power(t, t)", 1)
        assert_matches(run2(built, 51, x, y, 1.5, tmp_bytes), once(np.power(x64, 1.5), dtype), dtype, "Power(t, s)", 1)
        assert_matches(run2(built, 52, x, y, 1.5), once(np.power(1.5, x64), dtype), dtype, "Power(s, t)", 1)


def test_clamp_fmod_exp_axpy(built):
    dtype = dtype_of(built)
    x = edge_values(dtype, -8, 8)
    y = np.resize(np.array([3.0, -2.0, 0.7, -0.25, 5.0, math.inf, 1.0], dtype), len(x))
    s = 0.75
    sd = float(dtype(s))
    x64, y64 = x.astype(np.float64), y.astype(np.float64)
    with np.errstate(all="ignore"):
        assert_matches(run2(built, 53, x, y, s), once(np.where(np.isnan(x64), x64, np.minimum(x64, sd)), dtype),
                       dtype, "ClampMax", 0)
        assert_matches(run2(built, 54, x, y, s), once(np.where(np.isnan(x64), x64, np.maximum(x64, sd)), dtype),
                       dtype, "ClampMin", 0)
        assert_matches(run2(built, 55, x, y, s), once(np.fmod(x64, y64), dtype), dtype, "Fmod", 0)
        assert_matches(run2(built, 56, x, y, s), once(np.exp(x64), dtype), dtype, "Exp", 1)
        prod = (x64 * sd).astype(np.float32).astype(np.float64)
        assert_matches(run2(built, 57, x, y, s), once(prod + y64, dtype), dtype, "Axpy", 0)


def test_power_tmp_minimum_includes_its_extra_repeat(built):
    dtype = dtype_of(built)
    need = (7 if dtype == np.float16 else 4) * 128 + 256
    x = np.ones(64, dtype=dtype)
    run2(built, 50, x, x, 1.5, tmp_bytes=need)
    with pytest.raises(runtime.SimError, match=f"sharedTmpBuffer holds {need - 32} bytes but Power needs at least {need}"):
        run2(built, 50, x, x, 1.5, tmp_bytes=need - 32)


@pytest.mark.parametrize("which", [1, 9, 13, 24, 50])
def test_host_helper_minimum_is_what_the_kernel_accepts(built, which):
    """Get<Api>MaxMinTmpSize on the host and the kernel-side check agree: the minimum works,
    32 bytes less is reported."""
    dtype = dtype_of(built)
    x = np.full(256, 0.5, dtype=dtype)
    run(built, which, x, tmp_bytes=-2)
    if which == 50:
        return      # the host's Power figure is 310P's, which needs more than this A2 kernel
    with pytest.raises(runtime.SimError, match="sharedTmpBuffer holds"):
        run(built, which, x, tmp_bytes=-3)


def gelu(x):
    return x / (1 + np.exp(-1.59576912 * (x + 0.044715 * x ** 3)))


def faster_gelu_v2(x):
    t = x + 1e-12
    c = np.minimum(np.abs(0.7071 * x), 1.769) - 1.769
    return x * ((t / np.abs(t)) * (-0.1444 * c * c + 0.5) + 0.5)


ACTIVATIONS = {
    60: ("Silu", lambda x, y, b: x / (1 + np.exp(-x))),
    61: ("Swish", lambda x, y, b: x / (1 + np.exp(-b * x))),
    62: ("Gelu", lambda x, y, b: gelu(x)),
    63: ("FasterGelu", lambda x, y, b: x / (1 + np.exp(-1.702 * x))),
    64: ("FasterGeluV2", lambda x, y, b: faster_gelu_v2(x)),
    65: ("GeGLU", lambda x, y, b: x * gelu(y)),
    66: ("ReGlu", lambda x, y, b: x * np.maximum(y, 0)),
    67: ("SwiGLU", lambda x, y, b: x * (y / (1 + np.exp(-b * y)))),
}


# the kernel calls these APIs only in the form with a caller's temporary buffer
ONE_FORM = (63, 64, 66)


@pytest.mark.parametrize("which,tmp_bytes", [(w, t) for w in sorted(ACTIVATIONS) for t in (4096, -1)
                                             if not (t < 0 and w in ONE_FORM)])
def test_activations_match_the_documented_formulas(built, which, tmp_bytes):
    dtype = dtype_of(built)
    name, f = ACTIVATIONS[which]
    x = edge_values(dtype, -8, 8)
    y = edge_values(dtype, -6, 6)[::-1].copy()
    beta = 1.5      # the scalar attribute; exact in both dtypes
    z = run2(built, which, x, y, beta, tmp_bytes)
    with np.errstate(all="ignore"):
        want = once(f(x.astype(np.float64), y.astype(np.float64), beta), dtype)
    assert_matches(z, want, dtype, name, ulps=1)


def rows(dtype, n):
    inner = (n * np.dtype(dtype).itemsize + 31) // 32 * 32 // np.dtype(dtype).itemsize
    return inner


def tree_sum(v, dtype):
    """The vector unit's order: a pairwise tree per 256-byte repeat, then over the repeat sums,
    rounding each step to dtype."""
    per = 256 // np.dtype(dtype).itemsize

    def tree(a):
        a = list(a)
        while len(a) > 1:
            nxt = [dtype(np.float32(a[i]) + np.float32(a[i + 1])) for i in range(0, len(a) - 1, 2)]
            if len(a) % 2:
                nxt.append(a[-1])
            a = nxt
        return a[0]
    return tree([tree(v[i:i + per]) for i in range(0, len(v), per)])


@pytest.mark.parametrize("n", [1, 100, 200])
def test_sum_and_mean_per_row(built, n):
    dtype = dtype_of(built)
    inner = rows(dtype, n)
    x = np.zeros(PADDED, dtype)
    data = np.random.default_rng(n).uniform(-3, 3, (4, n)).astype(dtype)
    data[0, 0] = np.inf if n > 1 else data[0, 0]
    for r in range(4):
        x[r * inner: r * inner + n] = data[r]
    z = np.full(PADDED, 7, dtype=dtype)
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x, "y": x}, {"z": z},
                     {"which": 70, "count": n, "tmp_bytes": 4096})
    sums = [tree_sum(data[r], dtype) for r in range(4)]
    np.testing.assert_array_equal(z[:4], np.array(sums, dtype))
    for tmp in (4096, -1):
        z = np.full(PADDED, 7, dtype=dtype)
        runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x, "y": x}, {"z": z},
                         {"which": 71, "count": n, "tmp_bytes": tmp})
        inv = dtype(np.float32(1.0) / np.float32(n))
        np.testing.assert_array_equal(z[:4], np.array([dtype(np.float32(s) * np.float32(inv)) for s in sums], dtype))
    if dtype == np.float16:
        z = np.full(PADDED, 7, dtype=dtype)
        runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x, "y": x}, {"z": z},
                         {"which": 72, "count": n, "tmp_bytes": 8192})
        fsums = [tree_sum(data[r].astype(np.float32), np.float32) for r in range(4)]
        want = [np.float16(np.float32(s) * np.float32(np.float32(1.0) / np.float32(n))) for s in fsums]
        np.testing.assert_array_equal(z[:4], np.array(want, dtype))


def test_sum_below_its_tmp_minimum_is_reported(built):
    """Sum keeps one partial sum per 256-byte repeat, rounded up to 32 bytes: 16 bytes are too few."""
    dtype = dtype_of(built)
    x = np.ones(PADDED, dtype)
    z = np.zeros(PADDED, dtype)
    with pytest.raises(runtime.SimError, match="sharedTmpBuffer holds 16 bytes but Sum needs at least 32 bytes"):
        runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x, "y": x}, {"z": z},
                         {"which": 70, "count": 200, "tmp_bytes": 16})


@pytest.mark.parametrize("which", [73, 74])
def test_select_with_bytes_mask(built, which):
    dtype = dtype_of(built)
    n = 200
    inner = rows(dtype, n)
    x = np.random.default_rng(1).uniform(-5, 5, PADDED).astype(dtype)
    x[:3] = [np.nan, np.inf, -0.0]
    mask = np.zeros(PADDED * np.dtype(dtype).itemsize, np.uint8)
    m = np.random.default_rng(2).integers(0, 3, (4, (2 * inner + 31) // 32 * 32)).astype(np.uint8)
    mask[: m.size] = m.ravel()
    z = np.full(PADDED, 7, dtype=dtype)
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x, "y": mask.view(dtype)},
                     {"z": z}, {"which": which, "count": n, "tmp_bytes": 4096, "scalar": 1.5})
    take = m[:, :inner].ravel() != 0          # only the first srcLastAxis mask bytes of a row count
    src = x[: 4 * inner]
    # mask 0 picks src0, anything else src1: 73 is (tensor, scalar), 74 (scalar, tensor).
    want = np.where(take, dtype(1.5), src) if which == 73 else np.where(take, src, dtype(1.5))
    np.testing.assert_array_equal(z[: 4 * inner], want)


@pytest.mark.parametrize("which,src_shape", [(80, (4, 1)), (81, (1, 37)), (82, (1,))])
def test_broadcast_matches_numpy(built, which, src_shape):
    dtype = dtype_of(built)
    n = 37
    dst_shape = (n,) if which == 82 else (4, n)
    src = np.random.default_rng(which).uniform(-9, 9, src_shape).astype(dtype)
    x = np.zeros(PADDED, dtype)
    x[: src.size] = src.ravel()
    z = np.full(PADDED, 7, dtype=dtype)
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x, "y": x}, {"z": z},
                     {"which": which, "count": n, "tmp_bytes": 4096})
    want = np.broadcast_to(src, dst_shape).ravel()
    np.testing.assert_array_equal(z[: want.size], want)
    assert np.all(z[want.size:] == 0)


def test_broadcast_shape_mismatch_is_reported(built):
    dtype = dtype_of(built)
    x = np.zeros(PADDED, dtype)
    with pytest.raises(runtime.SimError) as err:
        runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x, "y": x},
                         {"z": np.zeros(PADDED, dtype)}, {"which": 83, "count": 37, "tmp_bytes": 4096})
    assert f"hl_math.cpp:{simbuild.line_of(kernel_path(built), 'broadcast-shape')}" in str(err.value)
    assert "srcShape[0] = 2 cannot broadcast to dstShape[0] = 4" in str(err.value)


def test_api_a_soc_lacks_is_a_compile_error(pkgs, lib_cache):
    """Sin exists for A2/A3 and 310P only (as in CANN 8.1): on 310B the kernel does not compile,
    and the error names the API."""
    from opkg.core.socs import get_soc
    with pytest.raises(simbuild.CompileError, match="'Sin' was not declared|‘Sin’ was not declared"):
        simbuild.build(pkgs / "hlmath", OP, OP.variant("float32"), get_soc("Ascend310B1"), lib_cache, stem="hl_math")


@pytest.mark.parametrize("which,axis", [(84, 1), (85, 0)])
def test_cumsum_along_either_axis(built, which, axis):
    dtype = dtype_of(built)
    n = 64
    inner = rows(dtype, n)
    data = np.random.default_rng(which).uniform(-2, 2, (4, inner)).astype(dtype)
    data[2, 3] = np.inf
    x = np.zeros(PADDED, dtype)
    x[: data.size] = data.ravel()
    z = np.full(PADDED, 7, dtype=dtype)
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x, "y": x}, {"z": z},
                     {"which": which, "count": n, "tmp_bytes": 4096})
    with np.errstate(invalid="ignore"):
        want = np.cumsum(data.astype(np.float32), axis=axis, dtype=np.float32).astype(dtype)
    np.testing.assert_array_equal(z[: data.size].reshape(4, inner), want)
    np.testing.assert_array_equal(z[data.size: data.size + inner], want[-1])     # outputLastRow
