"""SoftmaxFlashV2 (with and without update, the tiling from SoftMaxFlashV2TilingFunc or from the
kernel's SoftMaxFlashV2TilingFuncImpl), SoftmaxFlash (v1, with and without update),
SoftmaxGrad / SoftmaxGradFront, LogSoftMax and AdjustSoftMaxRes on the sim (A2, float and half)
against NumPy, the per-row statistics in their 32-byte block layout, and a missing shape reported
at the kernel's line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, TensorSpec
from opkg.sim import runtime
import simbuild

DT = ("float32", "float16")
OP = OpSpec(
    "HlSoftmax2",
    (TensorSpec("x", DT), TensorSpec("g", DT)),
    (TensorSpec("z", DT), TensorSpec("s", DT), TensorSpec("m", DT), TensorSpec("e", DT)),
    (AttrSpec("which", "int", required=True), AttrSpec("from", "int", 0)),
)
ROWS, COLS = 8, 64
KERNEL = Path(__file__).parent / "pkgs" / "hlsoftmax2" / "op_kernel" / "hl_softmax2.cpp"


@pytest.fixture(scope="module", params=list(DT))
def built(request, pkgs, soc910b, lib_cache):
    variant = next(v for v in OP.variants() if v.dtype_of("x") == request.param)
    return simbuild.build(pkgs / "hlsoftmax2", OP, variant, soc910b, lib_cache, stem="hl_softmax2")


def run(built, which, x, g, frm=0):
    dtype = x.dtype
    per = 32 // dtype.itemsize
    out = {"z": np.zeros((ROWS, COLS), dtype)}
    for k in "sme":
        out[k] = np.zeros(ROWS * per, dtype)
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x, "g": g}, out,
                     {"which": which, "from": frm})
    return out["z"], *(out[k].reshape(ROWS, per) for k in "sme")


def inputs(built, seed=9):
    dtype = np.dtype(built.variant.dtype_of("x")).type
    rng = np.random.default_rng(seed)
    x = rng.uniform(-5, 5, (ROWS, COLS)).astype(dtype)
    x[0, :3] = [np.finfo(dtype).max, -np.inf, -0.0]
    g = rng.uniform(-3, 8, (ROWS, COLS)).astype(dtype)
    return dtype, x, g


def r(v, dtype):
    return np.asarray(v, np.float64).astype(np.float32).astype(dtype)


def blocks(v, dtype, per):
    return np.repeat(r(v, dtype)[:, None], per, 1)


def flash_reference(x, g, dtype):
    """The flash statistics of two tiles: the first tile's row max and exps (x alone), then the
    update with the second tile g from the first's max and sum as stored (rounded to dtype):
    (mx, ex, s0, m1, em, eg) with m1 = max(inMax, g's row max), em = exp(inMax - m1) and
    eg = exp(g - m1)."""
    xv = x.astype(np.float64)
    mx = xv.max(axis=1)
    ex = np.exp(xv - mx[:, None])
    s0 = r(ex.sum(axis=1), dtype).astype(np.float64)
    m0 = r(mx, dtype).astype(np.float64)
    gv = g.astype(np.float64)
    m1 = np.maximum(gv.max(axis=1), m0)
    return mx, ex, s0, m1, np.exp(m0 - m1), np.exp(gv - m1[:, None])


def test_flash_v2_without_and_with_update(built):
    dtype, x, g = inputs(built)
    per = 32 // np.dtype(dtype).itemsize
    mx, ex, s0, m1, em, eg = flash_reference(x, g, dtype)
    z, s, m, e = run(built, 1, x, g)
    np.testing.assert_array_equal(z, r(ex, dtype))
    np.testing.assert_array_equal(s, blocks(ex.sum(axis=1), dtype, per))
    np.testing.assert_array_equal(m, blocks(mx, dtype, per))
    assert np.all(e == 0)                                            # no update: expMax untouched
    z, s, m, e = run(built, 2, x, g)
    np.testing.assert_array_equal(z, r(eg, dtype))
    np.testing.assert_array_equal(m, blocks(m1, dtype, per))
    np.testing.assert_array_equal(e, blocks(em, dtype, per))
    np.testing.assert_array_equal(s, blocks(em * s0 + eg.sum(axis=1), dtype, per))


def test_flash_v1_normalises_and_rescales_as_documented(built):
    """The devkit's formula for SoftmaxFlash: dst = exp(x - max) / sum; with update max' =
    max(inMax, row max), sum = exp(inMax - max') * inSum + sum(exp(x - max')), dst divided by
    it and expMax = exp(inMax - max') * inSum / sum."""
    dtype, x, g = inputs(built)
    per = 32 // np.dtype(dtype).itemsize
    mx, ex, s0, m1, em, eg = flash_reference(x, g, dtype)
    z, s, m, e = run(built, 9, x, g)
    np.testing.assert_array_equal(z, r(ex / ex.sum(axis=1)[:, None], dtype))
    np.testing.assert_array_equal(s, blocks(ex.sum(axis=1), dtype, per))
    np.testing.assert_array_equal(m, blocks(mx, dtype, per))
    assert np.all(e == 0)                                            # no update: expMax untouched
    z, s, m, e = run(built, 10, x, g)
    total = em * s0 + eg.sum(axis=1)
    np.testing.assert_array_equal(z, r(eg / total[:, None], dtype))
    np.testing.assert_array_equal(m, blocks(m1, dtype, per))
    np.testing.assert_array_equal(s, blocks(total, dtype, per))
    np.testing.assert_array_equal(e, blocks(em * s0 / total, dtype, per))


def test_flash_v2_with_tilings_made_in_the_kernel(built):
    # SoftMaxFlashV2TilingFuncImpl on the device side gives what the host's tiling gives
    _, x, g = inputs(built)
    for got, want in zip(run(built, 7, x, g), run(built, 2, x, g)):
        np.testing.assert_array_equal(got, want)


def test_flash_v2_reduces_over_the_tensors_original_shape(built):
    dtype, x, g = inputs(built)
    per = 32 // np.dtype(dtype).itemsize
    z, s, m, _ = run(built, 8, x, g)
    xv = x[:, :COLS - 5].astype(np.float64)                          # the 5 padding columns left out
    mx = xv.max(axis=1)
    ex = np.exp(xv - mx[:, None])
    np.testing.assert_array_equal(z[:, :COLS - 5], r(ex, dtype))
    np.testing.assert_array_equal(s, blocks(ex.sum(axis=1), dtype, per))
    np.testing.assert_array_equal(m, blocks(mx, dtype, per))


def test_softmax_grad_and_front(built):
    dtype, x, g = inputs(built)
    per = 32 // np.dtype(dtype).itemsize
    y = np.abs(x.astype(np.float64)).clip(0, 1).astype(dtype)       # any y works; finite keeps NumPy quiet
    z, s, m, _ = run(built, 3, y, g)
    yv, dy = y.astype(np.float64), g.astype(np.float64)
    front = (dy * yv).sum(axis=1)
    np.testing.assert_array_equal(z, r((dy - front[:, None]) * yv, dtype))
    np.testing.assert_array_equal(s, blocks(front, dtype, per))
    np.testing.assert_array_equal(m, blocks(front, dtype, per))     # SoftmaxGrad(isFront = true)


def test_log_softmax(built):
    dtype, x, g = inputs(built)
    x[0, 0] = 0                                                       # keep every row finite
    per = 32 // np.dtype(dtype).itemsize
    z, s, m, _ = run(built, 4, x, g)
    xv = x.astype(np.float64)
    mx = xv.max(axis=1, keepdims=True)
    tot = np.exp(xv - mx).sum(axis=1, keepdims=True)
    np.testing.assert_array_equal(z, r(xv - mx - np.log(tot), dtype))
    np.testing.assert_array_equal(s, blocks(tot[:, 0], dtype, per))
    np.testing.assert_array_equal(m, blocks(mx[:, 0], dtype, per))


def test_log_softmax_without_a_shape_is_reported(built):
    _, x, g = inputs(built)
    with pytest.raises(runtime.SimError) as err:
        run(built, 5, x, g)
    assert f"hl_softmax2.cpp:{simbuild.line_of(KERNEL, 'no-shape')}" in str(err.value)
    assert "LogSoftMax: shape srcM 0, srcK 0" in str(err.value)


def test_adjust_softmax_res(built):
    dtype, x, g = inputs(built)
    x[2, 5] = 7.0                                                     # row 2's max, unique to it
    bits = int(np.array([7.0], dtype).view(np.uint16 if dtype == np.float16 else np.uint32)[0])
    z, _, _, e = run(built, 6, x, g, frm=bits)
    xv = x.astype(np.float64)
    want = r(np.exp(xv - xv.max(axis=1, keepdims=True)), dtype)
    want[2] = 5
    np.testing.assert_array_equal(z, want)
    assert e[0, 0] == 1                                               # it reported a hit
    z, _, _, e = run(built, 6, x, g, frm=bits + 1)
    assert e[0, 0] == 0 and not np.any(z == 5)
