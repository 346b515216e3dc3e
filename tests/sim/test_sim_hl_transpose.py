"""ConfusionTranspose on the sim (A2, float and half): the seven documented scenes against NumPy
reshapes and transposes of the NZ layout (bit for bit, edge values included), the host's
GetConfusionTransposeTilingInfo / GetConfusionTransposeOnlyTilingInfo feeding the kernel, a
sharedTmpBuffer one block below GetConfusionTransposeMaxMinTmpSize's minimum and an unaligned
shape reported at the call's line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, TensorSpec
from opkg.sim import runtime
import simbuild

DT = ("float32", "float16")
OP = OpSpec("HlTrans", (TensorSpec("x", DT),), (TensorSpec("z", DT),),
            (AttrSpec("which", "int", required=True), AttrSpec("b", "int", required=True),
             AttrSpec("n", "int", required=True), AttrSpec("s", "int", required=True),
             AttrSpec("d", "int", required=True), AttrSpec("shrink", "int", 0)))
CAP = 4096
KERNEL = Path(__file__).parent / "pkgs" / "hltrans" / "op_kernel" / "hl_trans.cpp"


@pytest.fixture(scope="module", params=list(DT))
def built(request, pkgs, soc910b, lib_cache):
    variant = next(v for v in OP.variants() if v.dtype_of("x") == request.param)
    return simbuild.build(pkgs / "hltrans", OP, variant, soc910b, lib_cache, stem="hl_trans")


def source(dtype):
    x = np.random.default_rng(2).uniform(-100, 100, CAP).astype(dtype)
    fi = np.finfo(dtype)
    x[:8] = [0.0, -0.0, np.inf, -np.inf, np.nan, fi.smallest_subnormal, fi.max, -fi.max]
    return x


def run(built, which, b, n, s, d, shrink=0):
    dtype = np.dtype(built.variant.dtype_of("x")).type
    x = source(dtype)
    out = {"z": np.zeros(CAP, dtype)}
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x}, out,
                     {"which": which, "b": b, "n": n, "s": s, "d": d, "shrink": shrink})
    return x, out["z"]


def from_nz(flat, rows, cols):
    """An NZ matrix (cols / 16 column blocks, each rows x 16) as a rows x cols array."""
    return flat.reshape(cols // 16, rows, 16).transpose(1, 0, 2).reshape(rows, cols)


def to_nz(m):
    rows, cols = m.shape
    return m.reshape(rows, cols // 16, 16).transpose(1, 0, 2).reshape(-1)


def expected(which, x, b, n, s, d):
    if which == 7:
        return x[: s * d].reshape(s, d).T.reshape(-1)
    h = n * d
    if which in (1, 2, 5, 6):      # source [B, N] of NZ (S x D)
        m = np.stack([from_nz(x[i * s * d:(i + 1) * s * d], s, d) for i in range(b * n)]).reshape(b, n, s, d)
        if which == 1:
            return m.transpose(0, 2, 1, 3).reshape(-1)
        if which == 2:             # NZ of (N x D) per (b, s)
            return np.concatenate([to_nz(m[i, :, j, :]) for i in range(b) for j in range(s)])
        whole = m.transpose(0, 2, 1, 3).reshape(b, s, h)
        return whole.reshape(-1) if which == 5 else np.concatenate([to_nz(whole[i]) for i in range(b)])
    m = np.stack([from_nz(x[i * s * h:(i + 1) * s * h], s, h) for i in range(b)])   # [B] of NZ (S x H)
    parts = m.reshape(b, s, n, d).transpose(0, 2, 1, 3)                            # [B, N, S, D]
    if which == 4:
        return parts.reshape(-1)
    return np.concatenate([to_nz(parts[i, j]) for i in range(b) for j in range(n)])


SCENES = [(1, 2, 2, 32, 16), (2, 1, 16, 16, 16), (3, 2, 2, 32, 16), (4, 2, 2, 32, 16), (5, 2, 2, 32, 16),
          (6, 2, 2, 32, 16), (7, 1, 1, 32, 64), (7, 1, 1, 48, 16)]


@pytest.mark.parametrize("which,b,n,s,d", SCENES)
def test_scene_matches_numpy(built, which, b, n, s, d):
    x, z = run(built, which, b, n, s, d)
    want = expected(which, x, b, n, s, d)
    np.testing.assert_array_equal(z[: want.size].view(np.uint8), want.view(np.uint8))   # bit for bit
    assert np.all(z[want.size:] == 0)


def test_tmp_below_the_host_minimum_is_reported(built):
    size = np.dtype(built.variant.dtype_of("x")).itemsize
    with pytest.raises(runtime.SimError) as err:
        run(built, 3, 2, 2, 32, 16, shrink=32)
    msg = str(err.value)
    assert f"hl_trans.cpp:{simbuild.line_of(KERNEL, 'transpose')}: block 0 of 1: " in msg
    assert f"sharedTmpBuffer holds {256 * size - 32} bytes but ConfusionTranspose needs at least {256 * size}" in msg


def test_unaligned_split_is_reported(built):
    with pytest.raises(runtime.SimError) as err:
        run(built, 4, 2, 2, 32, 8)
    assert f"hl_trans.cpp:{simbuild.line_of(KERNEL, 'transpose')}" in str(err.value)
    assert "hnDiv a multiple of 16" in str(err.value)
