"""SoftMax on the sim, end to end: the host's SoftMaxTilingFunc and GetSoftMaxMinTmpSize fill a
SoftMaxTiling nested in the operator's tiling struct, the kernel's SoftMax reads it; results
against NumPy per dtype over edge values, the sum/max block layout, and the temporary-space check
with the kernel's file:line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, TensorSpec
from opkg.sim import runtime
import simbuild

DT = ("float32", "float16")
OP = OpSpec(
    "HlSoftmax",
    (TensorSpec("x", DT),),
    (TensorSpec("z", DT), TensorSpec("s", DT), TensorSpec("m", DT)),
    (AttrSpec("valid", "int", required=True), AttrSpec("which", "int", required=True),
     AttrSpec("shrink", "int", required=True)),
)
ROWS, COLS = 8, 64
KERNEL = Path(__file__).parent / "pkgs" / "hlsoftmax" / "op_kernel" / "hl_softmax.cpp"


@pytest.fixture(scope="module", params=list(DT))
def built(request, pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "hlsoftmax", OP, OP.variant(request.param), soc910b, lib_cache, stem="hl_softmax")


def run(built, x, valid, which=1, shrink=0):
    dtype = x.dtype
    per = 32 // dtype.itemsize
    z = np.full((ROWS, COLS), 7, dtype)
    s = np.full(ROWS * per, 7, dtype)
    m = np.full(ROWS * per, 7, dtype)
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x}, {"z": z, "s": s, "m": m},
                     {"valid": valid, "which": which, "shrink": shrink})
    return z, s.reshape(ROWS, per), m.reshape(ROWS, per)


def inputs(dtype):
    x = np.random.default_rng(5).uniform(-6, 6, (ROWS, COLS)).astype(dtype)
    x[0, :4] = [np.finfo(dtype).max, 0.0, -0.0, -np.inf]     # a huge logit and one that vanishes
    x[1, :3] = [np.finfo(dtype).smallest_subnormal, 30.0, 30.0]
    return x


def reference(x, valid):
    v = x[:, :valid].astype(np.float64)
    mx = v.max(axis=1, keepdims=True)
    e = np.exp(v - mx)
    return e / e.sum(axis=1, keepdims=True), e.sum(axis=1), mx[:, 0]


@pytest.mark.parametrize("valid", [COLS, 50])
def test_softmax_rows_match_numpy(built, valid):
    dtype = np.dtype(built.variant.dtype_of("x")).type
    x = inputs(dtype)
    z, s, m = run(built, x, valid)
    want, sums, maxes = reference(x, valid)
    np.testing.assert_array_equal(z[:, :valid], want.astype(np.float32).astype(dtype))
    assert np.all(z[:, valid:] == 0)                                   # padding columns untouched
    np.testing.assert_array_equal(s, np.repeat(sums.astype(np.float32).astype(dtype)[:, None], s.shape[1], 1))
    np.testing.assert_array_equal(m, np.repeat(maxes.astype(np.float32).astype(dtype)[:, None], m.shape[1], 1))


def test_form_without_sum_and_max_and_shape_from_the_tiling(built):
    dtype = np.dtype(built.variant.dtype_of("x")).type
    x = inputs(dtype)
    want = reference(x, COLS)[0].astype(np.float32).astype(dtype)
    np.testing.assert_array_equal(run(built, x, 50, which=2)[0][:, :50], reference(x, 50)[0].astype(np.float32).astype(dtype))
    np.testing.assert_array_equal(run(built, x, COLS, which=3)[0], want)


def test_tmp_buffer_below_the_host_minimum_is_reported(built):
    dtype = np.dtype(built.variant.dtype_of("x")).type
    with pytest.raises(runtime.SimError) as err:
        run(built, inputs(dtype), COLS, shrink=32)
    msg = str(err.value)
    assert f"hl_softmax.cpp:{simbuild.line_of(KERNEL, 'softmax-tmp')}" in msg
    assert f"sharedTmpBuffer holds {COLS * 4 + 64 - 32} bytes but SoftMax needs at least {COLS * 4 + 64}" in msg


def test_simple_softmax_from_softmax_statistics(built):
    dtype = np.dtype(built.variant.dtype_of("x")).type
    x = inputs(dtype)
    z, s, m = run(built, x, 50, which=4)
    v = x[:, :50].astype(np.float64)
    sums = s[:, 0].astype(np.float64)[:, None]
    maxes = m[:, 0].astype(np.float64)[:, None]
    # SimpleSoftMax uses the statistics as stored (rounded to the dtype).
    np.testing.assert_array_equal(z[:, :50], (np.exp(v - maxes) / sums).astype(np.float32).astype(dtype))
