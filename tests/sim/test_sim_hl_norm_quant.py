"""The quantization and normalization libraries on the sim (A2, float and half): AscendQuant per
tensor and per channel, AscendDequant (tensor and scalar scales, calCount columns),
AscendAntiQuant (both layouts, half), RmsNorm, LayerNorm (both forms), DeepNorm, BatchNorm,
GroupNorm, Normalize, LayerNormGrad/LayerNormGradBeta, DropOut (byte, bit and misaligned byte
masks) and ReduceXorSum against NumPy (float64, rounded once), and shape/calCount errors at the
kernel's line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, TensorSpec
from opkg.sim import runtime
import simbuild

DT = ("float32", "float16")
OP = OpSpec(
    "HlNorm",
    (TensorSpec("x", DT), TensorSpec("g", DT)),
    (TensorSpec("z", DT), TensorSpec("s", DT), TensorSpec("r", ("float32", "float32")),
     TensorSpec("q", ("int32", "int32"))),
    (AttrSpec("which", "int", required=True), AttrSpec("scale", "float", 1.0), AttrSpec("offset", "float", 0.0),
     AttrSpec("eps", "float", 1e-5), AttrSpec("valid", "int", 64)),
)
ROWS, COLS = 8, 64
N = ROWS * COLS
KERNEL = Path(__file__).parent / "pkgs" / "hlnorm" / "op_kernel" / "hl_norm.cpp"
EPS = np.float32(1e-5)


@pytest.fixture(scope="module", params=list(DT))
def built(request, pkgs, soc910b, lib_cache):
    variant = next(v for v in OP.variants() if v.dtype_of("x") == request.param)
    return simbuild.build(pkgs / "hlnorm", OP, variant, soc910b, lib_cache, stem="hl_norm")


def dt(built):
    return np.dtype(built.variant.dtype_of("x")).type


def run(built, which, x, g, **attrs):
    dtype = dt(built)
    out = {"z": np.zeros(N, dtype), "s": np.zeros(128, dtype), "r": np.zeros(64, np.float32),
           "q": np.zeros(256, np.int32)}
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x, "g": g}, out,
                     {"which": which, **attrs})
    return out


def data(built, lo=-4.0, hi=4.0, seed=3):
    rng = np.random.default_rng(seed)
    dtype = dt(built)
    return rng.uniform(lo, hi, N).astype(dtype), rng.uniform(0.5, 2.0, N).astype(dtype)


def r(v, dtype):
    return np.asarray(v, np.float64).astype(np.float32).astype(dtype)


def sat8(v):
    return np.clip(np.rint(v.astype(np.float32).astype(np.float16).astype(np.float64)), -128, 127).astype(np.int8)


def test_ascend_quant_per_tensor_and_channel(built):
    dtype = dt(built)
    x, g = data(built, -40, 40)
    x[:3] = [np.inf, -np.inf, -0.0]
    q = run(built, 1, x, g, scale=2.5, offset=-3.0)["q"].view(np.int8)[:N]
    t = lambda v: v.astype(dtype).astype(np.float64)    # each step rounded to T
    want = sat8(t(t(x.astype(np.float64) * t(np.float64(2.5))) + t(np.float64(-3.0))))
    np.testing.assert_array_equal(q, want)
    q = run(built, 2, x, g)["q"].view(np.int8)[:N]
    sc = np.tile(g[:32], N // 32).astype(np.float64)
    of = np.tile(g[32:64], N // 32).astype(np.float64)
    np.testing.assert_array_equal(q, sat8(t(t(x.astype(np.float64) * sc) + of)))


def test_ascend_quant_count_not_a_whole_number_of_channels(built):
    x, g = data(built)
    with pytest.raises(runtime.SimError) as err:
        run(built, 3, x, g)
    assert f"hl_norm.cpp:{simbuild.line_of(KERNEL, 'quant-bad')}" in str(err.value)
    assert "calCount 100 is not a whole number of rows of scaleTensor's 32 elements" in str(err.value)


def test_ascend_dequant(built):
    dtype = dt(built)
    x, g = data(built, -3000, 3000)
    z = run(built, 4, x, g)["z"].reshape(ROWS, COLS)
    xi = np.rint(x.astype(np.float64)).reshape(ROWS, COLS)
    sc = g[:COLS].astype(np.float32).astype(np.float64)
    want = (xi[:, :48].astype(np.float32) * sc[:48].astype(np.float32)).astype(dtype)
    np.testing.assert_array_equal(z[:, :48], want)
    assert np.all(z[:, 48:] == 0)                                  # columns past calCount untouched
    z = run(built, 5, x, g, scale=0.125)["z"].reshape(ROWS, COLS)
    np.testing.assert_array_equal(z, (xi.astype(np.float32) * np.float32(0.125)).astype(dtype))


@pytest.mark.parametrize("transpose", [False, True])
def test_ascend_antiquant_half(pkgs, soc910b, lib_cache, transpose):
    # AscendAntiQuant's dst is half or bfloat16_t: the half build only
    variant = next(v for v in OP.variants() if v.dtype_of("x") == "float16")
    built = simbuild.build(pkgs / "hlnorm", OP, variant, soc910b, lib_cache, stem="hl_norm")
    x, g = data(built, -100, 100)
    z = run(built, 14 if transpose else 13, x, g)["z"].reshape(ROWS, COLS).astype(np.float64)
    q8 = np.clip(np.rint(x.astype(np.float64)), -128, 127).reshape(ROWS, COLS)
    if transpose:
        off, sc = g[:ROWS].astype(np.float64)[:, None], g[64:64 + ROWS].astype(np.float64)[:, None]
    else:
        off, sc = g[:COLS].astype(np.float64)[None, :], g[64:128].astype(np.float64)[None, :]
    want = ((q8 + off).astype(np.float16).astype(np.float64) * sc).astype(np.float32).astype(np.float16)
    np.testing.assert_array_equal(z.astype(np.float16), want)


def layer(x, valid, gamma, beta, eps):
    v = x[:, :valid].astype(np.float64)
    m = v.mean(axis=1, keepdims=True)
    var = ((v - m) ** 2).mean(axis=1, keepdims=True)
    rstd = 1.0 / np.sqrt(var + eps)
    return (v - m) * rstd * gamma[:valid] + beta[:valid], m[:, 0], var[:, 0], rstd[:, 0]


@pytest.mark.parametrize("valid", [64, 50])
def test_rmsnorm_and_layernorm(built, valid):
    dtype = dt(built)
    x, g = data(built)
    eps = float(np.float64(EPS.astype(dtype)))
    xs = x.reshape(ROWS, COLS).astype(np.float64)[:, :valid]
    gamma, beta = g[:COLS].astype(np.float64), g[64:128].astype(np.float64)
    z = run(built, 6, x, g, valid=valid)["z"].reshape(ROWS, COLS)
    rms = xs / np.sqrt((xs ** 2).mean(axis=1, keepdims=True) + eps) * gamma[:valid]
    np.testing.assert_array_equal(z[:, :valid], r(rms, dtype))
    out = run(built, 7, x, g, valid=valid)
    y, m, var, _ = layer(x.reshape(ROWS, COLS), valid, gamma, beta, eps)
    np.testing.assert_array_equal(out["z"].reshape(ROWS, COLS)[:, :valid], r(y, dtype))
    np.testing.assert_array_equal(out["s"][:ROWS], r(m, dtype))
    np.testing.assert_array_equal(out["s"][64:64 + ROWS], r(var, dtype))
    out = run(built, 8, x, g, valid=valid)                     # [A, R] form: float mean and rstd
    y, m, _, rstd = layer(x.reshape(ROWS, COLS), valid, gamma, beta, float(EPS))
    np.testing.assert_array_equal(out["z"].reshape(ROWS, COLS)[:, :valid], r(y, dtype))
    np.testing.assert_array_equal(out["r"][:ROWS], m.astype(np.float32))
    np.testing.assert_array_equal(out["r"][32:32 + ROWS], rstd.astype(np.float32))


def test_rmsnorm_valid_past_the_row_is_reported(built):
    x, g = data(built)
    with pytest.raises(runtime.SimError) as err:
        run(built, 6, x, g, valid=65)
    assert f"hl_norm.cpp:{simbuild.line_of(KERNEL, 'rmsnorm')}" in str(err.value)
    assert "65 valid" in str(err.value)


def test_deepnorm_batchnorm_groupnorm(built):
    dtype = dt(built)
    x, g = data(built)
    eps = float(np.float64(EPS.astype(dtype)))
    alpha = 0.75
    out = run(built, 9, x, g, scale=alpha)
    gx = g.reshape(ROWS, COLS).astype(np.float64)
    y, m, var, _ = layer(alpha * x.reshape(ROWS, COLS).astype(np.float64) + gx, COLS,
                         g[128:192].astype(np.float64), g[64:128].astype(np.float64), eps)
    np.testing.assert_array_equal(out["z"].reshape(ROWS, COLS), r(y, dtype))
    np.testing.assert_array_equal(out["s"][:ROWS], r(m, dtype))
    np.testing.assert_array_equal(out["s"][64:64 + ROWS], r(var, dtype))

    out = run(built, 10, x, g)
    xs = x.reshape(ROWS, COLS).astype(np.float64)
    m, var = xs.mean(axis=0), xs.var(axis=0)
    y = (xs - m) / np.sqrt(var + eps) * g[:ROWS, None].astype(np.float64) + g[64:64 + ROWS, None].astype(np.float64)
    np.testing.assert_array_equal(out["z"].reshape(ROWS, COLS), r(y, dtype))
    np.testing.assert_array_equal(out["s"][:COLS], r(m, dtype))
    np.testing.assert_array_equal(out["s"][64:128], r(var, dtype))

    out = run(built, 11, x, g)
    xs = x.reshape(2, 2, 2 * COLS).astype(np.float64)           # [N, G, d * HW]
    m, var = xs.mean(axis=2), xs.var(axis=2)
    ch = np.repeat(np.arange(4), COLS).reshape(2, 2 * COLS)      # the channel of each element of a group
    gamma, beta = g[:4].astype(np.float64), g[64:68].astype(np.float64)
    y = (xs - m[..., None]) / np.sqrt(var[..., None] + eps) * gamma[ch][None] + beta[ch][None]
    np.testing.assert_array_equal(out["z"], r(y.reshape(-1), dtype))
    np.testing.assert_array_equal(out["s"][:4], r(m.reshape(-1), dtype))
    np.testing.assert_array_equal(out["s"][64:68], r(var.reshape(-1), dtype))


def test_normalize_from_given_statistics(built):
    dtype = dt(built)
    x, g = data(built)
    out = run(built, 12, x, g, valid=50)
    mean = out["s"][:ROWS].astype(np.float64)[:, None]           # LayerNorm's, as stored (rounded to T)
    var = out["s"][64:64 + ROWS].astype(np.float64)[:, None]
    xs = x.reshape(ROWS, COLS)[:, :50].astype(np.float64)
    rstd = 1.0 / np.sqrt(var + float(EPS))
    y = (xs - mean) * rstd * g[:50].astype(np.float64) + g[64:114].astype(np.float64)
    np.testing.assert_array_equal(out["z"].reshape(ROWS, COLS)[:, :50], r(y, dtype))
    np.testing.assert_array_equal(out["r"][:ROWS], rstd[:, 0].astype(np.float32))


@pytest.mark.parametrize("valid", [64, 50])
def test_layernorm_grad_and_beta(built, valid):
    dtype = dt(built)
    x, g = data(built)
    eps = float(np.float64(EPS.astype(dtype)))
    out = run(built, 15, x, g, valid=valid)
    # LayerNorm's statistics as stored (rounded to T), then the documented backward formulas
    xs = x.reshape(ROWS, COLS).astype(np.float64)[:, :valid]
    mean = r(xs.mean(axis=1), dtype).astype(np.float64)[:, None]
    var = r(((xs - xs.mean(axis=1, keepdims=True)) ** 2).mean(axis=1), dtype).astype(np.float64)[:, None]
    dy = g.reshape(ROWS, COLS).astype(np.float64)[:, :valid]
    gamma = g[64:64 + valid].astype(np.float64)
    x1, x2, rr = dy * gamma, xs - mean, var + eps
    pd_var = (-0.5 * x1 * x2 * rr ** -1.5).sum(axis=1, keepdims=True)
    pd_mean = (-x1 * rr ** -0.5).sum(axis=1, keepdims=True) + pd_var * (-2.0 * x2).mean(axis=1, keepdims=True)
    pd_x = x1 * rr ** -0.5 + pd_var * 2.0 / valid * x2 + pd_mean / valid
    np.testing.assert_array_equal(out["z"].reshape(ROWS, COLS)[:, :valid], r(pd_x, dtype))
    res = r(x2 * rr ** -0.5, dtype).astype(np.float64)                # resForGamma as stored
    np.testing.assert_array_equal(out["s"][:valid], r((dy * res).sum(axis=0), dtype))
    np.testing.assert_array_equal(out["s"][64:64 + valid], r(dy.sum(axis=0), dtype))


@pytest.mark.parametrize("which,mcols", [(16, 64), (17, 8), (18, 96)])
def test_dropout_masks(built, which, mcols):
    dtype = dt(built)
    x, g = data(built)
    keep = 0.8
    out = run(built, which, x, g, scale=keep)
    mask = g.view(np.uint8)
    div = np.float64((np.float32(1.0) / np.float32(keep)).astype(dtype))
    xs = x.reshape(ROWS, COLS).astype(np.float64)
    if which == 17:
        bits = np.unpackbits(mask[: ROWS * mcols], bitorder="little").reshape(ROWS, COLS)
        want = r(np.where(bits == 1, xs, 0.0) * div, dtype)
    else:
        m = mask[: ROWS * mcols].reshape(ROWS, mcols)[:, :COLS].astype(np.float64)
        want = r(r(m * xs, dtype).astype(np.float64) * div, dtype)
    np.testing.assert_array_equal(out["z"].reshape(ROWS, COLS), want)
    packed = out["q"].view(np.uint8)[:512]
    if which == 18:                                                   # rows packed in place, as on the device
        np.testing.assert_array_equal(packed, mask[: ROWS * mcols].reshape(ROWS, mcols)[:, :COLS].reshape(-1))
    else:
        np.testing.assert_array_equal(packed, mask[:512])


def test_reduce_xor_sum(built):
    x, g = data(built)
    a, b = x.view(np.int16)[:512].astype(np.int64), g.view(np.int16)[:512].astype(np.int64)
    total = float(np.float32((a ^ b).sum()))
    got = run(built, 19, x, g)["q"].view(np.int16)[0]
    assert got == np.clip(np.rint(total), -32768, 32767)


@pytest.mark.parametrize("which,valid", [(20, 64), (20, 40), (21, 40)])
def test_welford_update(built, which, valid):
    dtype = dt(built)
    x, g = data(built)
    n_rec = 0.25
    out = run(built, which, x, g, valid=valid, scale=n_rec)
    f = np.float32
    xs, mean, m2 = x[:COLS].astype(f), g[:COLS].astype(f), g[64:128].astype(f)
    d = xs - mean
    new_mean = d * f(n_rec) + mean                                     # float steps, as the kernel's
    new_m2 = d * (xs - new_mean) + m2
    got_mean, got_m2 = out["r"], out["q"].view(np.float32)[:COLS]
    np.testing.assert_array_equal(got_mean[:valid], new_mean[:valid])
    np.testing.assert_array_equal(got_m2[:valid], new_m2[:valid])
    if which == 21:                                                    # isInplace: the inputs' tail copied
        tail = COLS - (COLS - valid + 7) // 8 * 8
        np.testing.assert_array_equal(got_mean[tail:], mean[tail:])
        np.testing.assert_array_equal(got_m2[tail:], m2[tail:])


@pytest.mark.parametrize("which,valid", [(26, 64), (26, 40), (27, 64)])
def test_welford_finalize(built, which, valid):
    # the merge of 64 partial (mean, M2) pairs: CANN 8.1's formula (welfordfinalize_common_impl.h),
    # against NumPy in float64 rounded once
    x, g = data(built)
    f = np.float32
    mean, m2 = g[:COLS].astype(f).astype(np.float64), g[64:128].astype(f).astype(np.float64)
    if which == 27:
        w = np.rint(g[128:192].astype(f) * f(4)).astype(np.float64)
    elif valid == COLS:
        w = np.full(COLS, 4.0)
    else:
        w = np.where(np.arange(COLS) < valid, 4.0, 3.0)
    r_rec = f(1 / w.sum())
    out = run(built, which, x, g, valid=valid, scale=float(r_rec))
    if which == 26 and valid == COLS:                  # no tail: the mean is sum(mean_j) / abLength
        want_mean = np.sum(mean * np.float64(f(1 / COLS)))
    else:
        want_mean = np.sum(mean * w * np.float64(r_rec))
    want_var = np.sum((m2 + w * (mean - want_mean) ** 2) * np.float64(r_rec))
    got = out["r"]
    assert got[0] == f(want_mean) and got[8] == f(want_var)
    assert not got[1:8].any() and not got[9:16].any()   # the rest of each 32-byte block is cleared
    # the merged mean is the count-weighted mean of the partial means
    assert abs(got[0] - np.sum(mean * w) / w.sum()) < 1e-5


def test_pad_and_unpad(built):
    dtype = dt(built)
    x, g = data(built)
    z = run(built, 22, x, g, valid=50, offset=3.0)["z"].reshape(ROWS, COLS)
    want = x.reshape(ROWS, COLS).copy()
    want[:, 50:64] = 3
    np.testing.assert_array_equal(z, want)
    z = run(built, 23, x, g, offset=-2.0)["z"].reshape(ROWS, COLS)
    want = np.full((ROWS, COLS), -2, dtype)
    want[:, 6:56] = x[: ROWS * 50].reshape(ROWS, 50)
    np.testing.assert_array_equal(z, want)
    z = run(built, 24, x, g, valid=50)["z"]
    np.testing.assert_array_equal(z[: ROWS * 50], x.reshape(ROWS, COLS)[:, :50].reshape(-1))


def test_unpad_to_an_aligned_width_is_reported(built):
    x, g = data(built)
    with pytest.raises(runtime.SimError) as err:
        run(built, 25, x, g, valid=32)
    assert f"hl_norm.cpp:{simbuild.line_of(KERNEL, 'unpad')}" in str(err.value)
    assert "must leave a row that is not 32-byte aligned" in str(err.value)


def test_norms_over_edge_values(built):
    # a NaN row, an inf row, a row of ±0 (variance 0: rstd = 1/sqrt(eps)), denormals: the
    # statistics and outputs follow the double formulas, NaN and inf propagating per row
    dtype = dt(built)
    x, g = data(built)
    rows = x.reshape(ROWS, COLS)
    rows[0, 5] = np.nan
    rows[1, 7] = np.inf
    rows[2, :] = np.where(np.arange(COLS) % 2, 0.0, -0.0).astype(dtype)
    rows[3, :] = np.finfo(dtype).smallest_subnormal * np.arange(COLS)
    eps = float(np.float64(EPS.astype(dtype)))
    gamma, beta = g[:COLS].astype(np.float64), g[64:128].astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        out = run(built, 7, x, g)
        y, m, var, _ = layer(rows, COLS, gamma, beta, eps)
        np.testing.assert_array_equal(out["z"].reshape(ROWS, COLS), r(y, dtype))
        np.testing.assert_array_equal(out["s"][:ROWS], r(m, dtype))
        np.testing.assert_array_equal(out["s"][64:64 + ROWS], r(var, dtype))
        assert np.isnan(out["z"][:COLS]).all() and np.isnan(out["z"][COLS:2 * COLS]).all()
        z = run(built, 6, x, g)["z"].reshape(ROWS, COLS)
        xs = rows.astype(np.float64)
        np.testing.assert_array_equal(z, r(xs / np.sqrt((xs ** 2).mean(axis=1, keepdims=True) + eps) * gamma, dtype))
