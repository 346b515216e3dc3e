"""The cube's img2col load (LoadData with LoadData3DParamsV2 and V2Pro, SetFmatrix,
SetLoadDataPaddingValue) and LoadDataWithTranspose (opkg/sim/include/opkg_sim/basic_api/cube/cube_load3d.h) on our own small kernel
(tests/sim/pkgs/cubeconv), against NumPy: the img2col matrix itself (through Mmad with an identity
B), a convolution, transposed half and int8 operands; and misuse reported at the kernel's line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, TensorSpec
from opkg.sim import runtime
import simbuild

OP = OpSpec(
    "CubeConv",
    (TensorSpec("fm", ("float16", "int8")), TensorSpec("wt", ("float16", "int8"))),
    (TensorSpec("c", ("float32", "int32")),),
    tuple(AttrSpec(a, "int", required=True) for a in ("which", "h", "wd", "kh", "kw", "s", "p", "n")),
)
KERNEL = Path(__file__).parent / "pkgs" / "cubeconv" / "op_kernel" / "cube_conv.cpp"
C0 = 16   # half channels: one C1 slice


@pytest.fixture(scope="module")
def fp16(pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "cubeconv", OP, OP.variant("float16_float32"), soc910b, lib_cache, stem="cube_conv")


@pytest.fixture(scope="module")
def int8(pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "cubeconv", OP, OP.variant("int8_int32"), soc910b, lib_cache, stem="cube_conv")


def im2col(x, kh, kw, s, p, pad_value=0.0):
    """Rows: output pixels, W fastest; columns: (filter row, filter column, channel), channel fastest."""
    h, w, c = x.shape
    xp = np.full((h + 2 * p, w + 2 * p, c), pad_value, dtype=np.float64)
    xp[p:p + h, p:p + w] = x
    ho, wo = (h + 2 * p - kh) // s + 1, (w + 2 * p - kw) // s + 1
    rows = [xp[i * s:i * s + kh, j * s:j * s + kw].reshape(-1) for i in range(ho) for j in range(wo)]
    return np.array(rows)


def run(built, which, fm, wt, rows, n, **attrs):
    out = np.dtype(built.variant.dtype_of("c"))
    c = np.full(rows * n, np.iinfo(out).min if out.kind == "i" else np.nan, dtype=out)
    values = {"which": which, "h": 0, "wd": 0, "kh": 1, "kw": 1, "s": 1, "p": 0, "n": n, **attrs}
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"fm": fm.ravel(), "wt": wt.ravel()},
                     {"c": c}, values)
    return c.reshape(rows, n)


CONV = [  # h, w, kh, kw, stride, pad
    (6, 7, 3, 3, 1, 1),
    (9, 8, 3, 2, 2, 1),
    (5, 5, 2, 2, 1, 0),
]


def feature_map(h, w, seed):
    # quarter steps in [-4, 4): exact in half, and every product and sum below exact in float
    rng = np.random.default_rng(seed)
    return (rng.integers(-16, 16, (h, w, C0)) / 4).astype(np.float16)


@pytest.mark.parametrize("h,w,kh,kw,s,p", CONV)
@pytest.mark.parametrize("which,pad_value", [(1, 0.0), (4, -2.0)])
def test_img2col_matrix_matches_numpy(fp16, h, w, kh, kw, s, p, which, pad_value):
    x = feature_map(h, w, seed=h * w)
    want = im2col(x.astype(np.float64), kh, kw, s, p, pad_value)
    k = kh * kw * C0
    # B = identity: c is the img2col matrix A2 held, as float
    got = run(fp16, which, x, np.eye(k, dtype=np.float16), want.shape[0], k, h=h, wd=w, kh=kh, kw=kw, s=s, p=p)
    np.testing.assert_array_equal(got, want.astype(np.float32))


# 2 (K halves) needs an even number of filter points, 3 (M halves) more than 16 output pixels
@pytest.mark.parametrize("which,h,w,kh,kw,s,p", [(1, *c) for c in CONV] + [
    (2, 9, 8, 3, 2, 2, 1), (2, 5, 5, 2, 2, 1, 0), (2, 7, 6, 2, 2, 1, 1),
    (3, 6, 7, 3, 3, 1, 1), (3, 9, 8, 3, 2, 2, 1), (3, 7, 6, 2, 2, 1, 1),
    (5, 6, 7, 3, 3, 1, 1), (5, 9, 8, 3, 2, 2, 1),
    (6, 6, 7, 3, 3, 1, 1), (6, 9, 8, 3, 2, 2, 1),
])
def test_convolution_through_img2col_and_mmad(fp16, which, h, w, kh, kw, s, p):
    """1: one load; 2: K in two loads (kStartPt) accumulated by two Mmads; 3: M in two loads
    (mStartPt) with SetFmatrix and SetLoadDataPaddingValue instead of the load's own values;
    5: the packed LoadData3DParamsV2Pro; 6: as 3 with SetLoadDataRepeat (one repeat) and
    SetLoadDataBoundary (past the map), which change nothing."""
    n = 20
    x = feature_map(h, w, seed=7)
    rng = np.random.default_rng(8)
    weights = (rng.integers(-8, 8, (n, kh, kw, C0)) / 8).astype(np.float16)
    cols = im2col(x.astype(np.float64), kh, kw, s, p)
    want = cols @ weights.reshape(n, -1).astype(np.float64).T
    got = run(fp16, which, x, weights, cols.shape[0], n, h=h, wd=w, kh=kh, kw=kw, s=s, p=p)
    np.testing.assert_array_equal(got, want.astype(np.float32))


def test_init_const_value_fills_b2(fp16):
    # B2 all ones (InitConstValue over its K1 x N1 fractals): each C row is its img2col row's sum
    h, w, kh, kw, s, p, n = 6, 7, 3, 3, 1, 1, 20
    x = feature_map(h, w, seed=9)
    cols = im2col(x.astype(np.float64), kh, kw, s, p)
    got = run(fp16, 7, x, np.zeros((n, kh * kw * C0), np.float16), cols.shape[0], n, h=h, wd=w, kh=kh, kw=kw, s=s,
              p=p)
    np.testing.assert_array_equal(got, np.repeat(cols.sum(axis=1, keepdims=True), n, axis=1).astype(np.float32))


def operands(built, m, k, n, seed):
    rng = np.random.default_rng(seed)
    if built.variant.dtype_of("fm") == "int8":
        return rng.integers(-128, 128, (m, k), dtype=np.int8), rng.integers(-128, 128, (k, n), dtype=np.int8)
    return ((rng.integers(-16, 16, (m, k)) / 8).astype(np.float16),
            (rng.integers(-16, 16, (k, n)) / 8).astype(np.float16))


@pytest.mark.parametrize("dtype", ["fp16", "int8"])
@pytest.mark.parametrize("m,k,n", [(16, 32, 64), (16, 64, 32), (40, 96, 64)])
def test_b_loaded_with_transpose(request, dtype, m, k, n):
    built = request.getfixturevalue(dtype)
    a, b = operands(built, m, k, n, seed=m + k)
    got = run(built, 20, a, b, m, n, h=m, wd=k)
    np.testing.assert_array_equal(got, (a.astype(np.float64) @ b.astype(np.float64)).astype(got.dtype))


@pytest.mark.parametrize("dtype", ["fp16", "int8"])
@pytest.mark.parametrize("m,k,n", [(32, 32, 16), (64, 96, 48)])
def test_a_loaded_with_transpose(request, dtype, m, k, n):
    built = request.getfixturevalue(dtype)
    a, b = operands(built, m, k, n, seed=m * 3 + k)
    # A given k x m and B given n x k: the kernel transposes A on its way into A2
    got = run(built, 21, np.ascontiguousarray(a.T), np.ascontiguousarray(b.T), m, n, h=m, wd=k)
    np.testing.assert_array_equal(got, (a.astype(np.float64) @ b.astype(np.float64)).astype(got.dtype))


@pytest.mark.parametrize("which,marker,words", [
    (11, "stride-range", ["strideW = 64 is outside its documented range [1, 63]"]),
    (12, "channel", ["channelSize = 20", "not modelled by the sim"]),
    (13, "kstart", ["kStartPt = 8 must be a multiple of 16"]),
    (14, "no-fmatrix", ["isSetFMatrix = false", "no SetFmatrix"]),
    (15, "two-repeats", ["SetLoadDataRepeat with repeatTime 2", "not modelled"]),
    (16, "boundary", ["past the SetLoadDataBoundary boundary of 1024 bytes", "not modelled"]),
])
def test_img2col_misuse_is_reported_at_its_line(fp16, which, marker, words):
    x = feature_map(6, 6, seed=1)
    with pytest.raises(runtime.SimError) as err:
        run(fp16, which, x, np.eye(9 * C0, dtype=np.float16), 36, 9 * C0, h=6, wd=6, kh=3, kw=3, s=1, p=1)
    text = str(err.value)
    assert f"cube_conv.cpp:{simbuild.line_of(KERNEL, marker)}" in text, text
    for w in words:
        assert w in text, text


@pytest.mark.parametrize("dtype,which,marker,words", [
    ("fp16", 22, "tstart", ["LoadDataWithTranspose: repeat 0 reads square 1000", "source tensor of"]),
    ("int8", 22, "tstart", ["LoadDataWithTranspose: repeat 0 reads square 1000"]),
    ("int8", 23, "overlap", ["put two transposed fractals on destination fractal 1"]),
])
def test_transpose_misuse_is_reported_at_its_line(request, dtype, which, marker, words):
    built = request.getfixturevalue(dtype)
    a, b = operands(built, 16, 64, 64, seed=3)
    with pytest.raises(runtime.SimError) as err:
        run(built, which, a, b, 16, 64, h=16, wd=64)
    text = str(err.value)
    assert f"cube_conv.cpp:{simbuild.line_of(KERNEL, marker)}" in text, text
    for w in words:
        assert w in text, text
