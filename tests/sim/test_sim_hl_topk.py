"""TopK on the sim (A2, float and half) against a stable NumPy/Python reference over edge values
(±0, denormals, ±inf, NaN, the type's largest finite values, ties): Normal mode with generated
and caller indices, finished rows and padded rows (n < inner), Small mode's packed output, the
host's GetTopKMaxMinTmpSize/TopKTilingFunc feeding the kernel, and a tmpLocal one block below the
minimum reported at the call's line."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, TensorSpec
from opkg.sim import runtime
import simbuild

DT = ("float32", "float16")
OP = OpSpec("HlTopk", (TensorSpec("x", DT),), (TensorSpec("v", DT), TensorSpec("i", ("int32", "int32"))),
            (AttrSpec("which", "int", required=True), AttrSpec("k", "int", required=True),
             AttrSpec("n", "int", required=True), AttrSpec("largest", "int", 1), AttrSpec("shrink", "int", 0)))
N = 256
KERNEL = Path(__file__).parent / "pkgs" / "hltopk" / "op_kernel" / "hl_topk.cpp"


@pytest.fixture(scope="module", params=list(DT))
def built(request, pkgs, soc910b, lib_cache):
    variant = next(v for v in OP.variants() if v.dtype_of("x") == request.param)
    return simbuild.build(pkgs / "hltopk", OP, variant, soc910b, lib_cache, stem="hl_topk")


def dtype_of(built):
    return np.dtype(built.variant.dtype_of("x")).type


def edge_data(dtype, seed=11):
    """Random values with the edge cases spread over the rows, and ties."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(-10, 10, N).astype(dtype)
    fi = np.finfo(dtype)
    tiny = fi.smallest_subnormal
    edges = [0.0, -0.0, np.inf, -np.inf, np.nan, tiny, -tiny, fi.max, -fi.max, 3.0, 3.0, -0.0]
    for r in range(N // 32):
        for j, e in enumerate(edges):
            x[r * 32 + (j * 5 + r) % 32] = e
    return x


def run(built, which, x, k, n, largest=1, shrink=0):
    dtype = dtype_of(built)
    out = {"v": np.zeros(N, dtype), "i": np.zeros(N, np.int32)}
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x}, out,
                     {"which": which, "k": k, "n": n, "largest": largest, "shrink": shrink})
    return out["v"], out["i"]


def reference(row, k, largest):
    """Stable order (lower index first on ties, ±0 equal); NaN ranks above +inf."""
    vals = [float(v) for v in row]
    if largest:
        key = lambda j: (0 if math.isnan(vals[j]) else 1, 0.0 if math.isnan(vals[j]) else -vals[j])
    else:
        key = lambda j: (1 if math.isnan(vals[j]) else 0, 0.0 if math.isnan(vals[j]) else vals[j])
    order = sorted(range(len(vals)), key=key)[:k]
    return np.array([row[j] for j in order], row.dtype), np.array(order, np.int32)


def same_values(got, want):
    """Bitwise equality, so -0 and +0 and NaN are told apart."""
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))


@pytest.mark.parametrize("largest", [1, 0])
@pytest.mark.parametrize("k", [1, 5, 17])
def test_normal_mode_per_row(built, largest, k):
    dtype = dtype_of(built)
    x = edge_data(dtype)
    v, i = run(built, 1, x, k, 64, largest)
    kv = -(-k // (32 // np.dtype(dtype).itemsize)) * (32 // np.dtype(dtype).itemsize)
    ki = -(-k // 8) * 8
    for r in range(4):
        want_v, want_i = reference(x[r * 64:(r + 1) * 64], k, largest)
        same_values(v[r * kv:r * kv + k], want_v)
        np.testing.assert_array_equal(i[r * ki:r * ki + k], want_i)


def test_caller_indices_finished_row_and_padding(built):
    dtype = dtype_of(built)
    x = edge_data(dtype).reshape(4, 64)
    x[:, 50:] = -np.inf                        # n = 50: the caller pads with the sort's last value
    k = 6
    v, i = run(built, 2, x.reshape(-1), k, 50)
    kv = -(-k // (32 // np.dtype(dtype).itemsize)) * (32 // np.dtype(dtype).itemsize)
    for r in range(4):
        want_v, want_i = reference(x[r], k, 1)
        same_values(v[r * kv:r * kv + k], want_v)
        want = np.full(k, 50, np.int32) if r == 1 else want_i + 100   # finished: every index is n
        np.testing.assert_array_equal(i[r * 8:r * 8 + k], want)


@pytest.mark.parametrize("largest", [1, 0])
def test_small_mode_packs_rows(built, largest):
    dtype = dtype_of(built)
    x = edge_data(dtype, seed=4)
    k = 3
    v, i = run(built, 3, x, k, 32, largest)
    for r in range(8):
        want_v, want_i = reference(x[r * 32:(r + 1) * 32], k, largest)
        same_values(v[r * k:(r + 1) * k], want_v)
        np.testing.assert_array_equal(i[r * k:(r + 1) * k], want_i)


@pytest.mark.parametrize("which,marker,need", [(1, "topk", 64 * 20), (3, "topk-small", 32 * 20 * 8)])
def test_tmp_below_the_host_minimum_is_reported(built, which, marker, need):
    x = edge_data(dtype_of(built))
    with pytest.raises(runtime.SimError) as err:
        run(built, which, x, 4, 64 if which == 1 else 32, shrink=32)
    msg = str(err.value)
    assert f"hl_topk.cpp:{simbuild.line_of(KERNEL, marker)}: block 0 of 1: " in msg
    assert f"sharedTmpBuffer holds {need - 32} bytes but TopK needs at least {need} bytes" in msg


def test_valid_length_past_inner_is_reported(built):
    with pytest.raises(runtime.SimError) as err:
        run(built, 3, edge_data(dtype_of(built)), 4, 40)
    assert f"hl_topk.cpp:{simbuild.line_of(KERNEL, 'topk-small')}" in str(err.value)
    assert "TopKInfo {outter 8, inner 32, n 40}" in str(err.value)
