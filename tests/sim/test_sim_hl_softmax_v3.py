"""SoftmaxFlashV3 on the sim (A2, half data, float statistics) without and with update, the tiling
from SoftMaxFlashV3TilingFunc with GetSoftMaxFlashV3MaxMinTmpSize's minimum, against NumPy in
float64 (CANN 8.1's v220 kernel formula: the row shifted per group of oriSrcK / 8 by its mean's
distance to the row mean, times alpha / (1 - alpha)); and a splitMeanCnt the kernel does not take
reported at the kernel's line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, TensorSpec
from opkg.sim import runtime
import simbuild

OP = OpSpec(
    "HlSoftmax3",
    (TensorSpec("x", ("float16",)), TensorSpec("g", ("float16",))),
    (TensorSpec("z", ("float16",)), TensorSpec("stats", ("float32",)), TensorSpec("e", ("float16",))),
    (AttrSpec("which", "int", required=True),),
)
ROWS, COLS = 4, 512
ALPHA = 0.9375
KERNEL = Path(__file__).parent / "pkgs" / "hlsoftmax3" / "op_kernel" / "hl_softmax3.cpp"


@pytest.fixture(scope="module")
def built(pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "hlsoftmax3", OP, OP.variants()[0], soc910b, lib_cache, stem="hl_softmax3")


def run(built, which, x, g):
    out = {"z": np.zeros((ROWS, COLS), np.float16), "stats": np.zeros(6 * ROWS * 8, np.float32),
           "e": np.zeros(ROWS * 16, np.float16)}
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x, "g": g}, out,
                     {"which": which})
    st = out["stats"].reshape(6, ROWS, 8)
    assert (st == st[:, :, :1]).all()              # each statistic fills its row's 32-byte block
    assert (out["e"].reshape(ROWS, 16) == out["e"].reshape(ROWS, 16)[:, :1]).all()
    return out["z"], st[:, :, 0], out["e"].reshape(ROWS, 16)[:, 0]


def shifted(x):
    """x' and the row mean: each group of COLS / 8 moved by (row mean - group mean) * s."""
    s = ALPHA / (1 - ALPHA)
    xv = x.astype(np.float64)
    g = xv.reshape(ROWS, 8, COLS // 8).mean(axis=2)
    gm = g.mean(axis=1)
    return xv - np.repeat((gm[:, None] - g) * s, COLS // 8, axis=1), gm


def f32(v):
    return np.asarray(v, np.float64).astype(np.float32)


@pytest.fixture
def data():
    rng = np.random.default_rng(11)
    x = rng.uniform(-0.3, 0.3, (ROWS, COLS)).astype(np.float16)
    x[:, :COLS // 8] += np.float16(0.1)            # one group's mean apart from the others
    g = rng.uniform(-0.2, 0.5, (ROWS, COLS)).astype(np.float16)
    return x, g


def test_flash_v3_without_update(built, data):
    x, g = data
    z, st, _ = run(built, 1, x, g)
    xs, gm = shifted(x)
    mx = xs.max(axis=1)
    y = np.exp(xs - mx[:, None])
    np.testing.assert_array_equal(z, y.astype(np.float32).astype(np.float16))
    np.testing.assert_array_equal(st[0], f32(gm))
    np.testing.assert_array_equal(st[1], f32(y.sum(axis=1)))
    np.testing.assert_array_equal(st[2], f32(mx))


def test_flash_v3_update_merges_the_second_tile(built, data):
    x, g = data
    z, st, e = run(built, 2, x, g)
    s = ALPHA / (1 - ALPHA)
    # step 1's statistics as the kernel stored them (float), then step 2 (loopCnt 2)
    xs1, gm1 = shifted(x)
    in_mean, in_max = f32(gm1).astype(np.float64), f32(xs1.max(axis=1)).astype(np.float64)
    in_sum = f32(np.exp(xs1 - xs1.max(axis=1)[:, None]).sum(axis=1)).astype(np.float64)
    np.testing.assert_array_equal(st[3], f32(gm1))
    xs2, gm2 = shifted(g)
    mean = (in_mean * 1 + gm2) / 2
    curr, prev = (gm2 - mean) * s, (in_mean - mean) * s
    mx = np.maximum(xs2.max(axis=1) + curr, in_max + prev)
    em = np.exp(in_max + prev - mx)
    y = np.exp(xs2 + curr[:, None] - mx[:, None])
    np.testing.assert_array_equal(z, y.astype(np.float32).astype(np.float16))
    np.testing.assert_array_equal(st[0], f32(mean))
    np.testing.assert_array_equal(st[2], f32(mx))
    np.testing.assert_array_equal(st[1], f32(em * in_sum + y.sum(axis=1)))
    np.testing.assert_array_equal(e, f32(em).astype(np.float16))


def test_split_mean_count_other_than_8_is_reported(built, data):
    x, g = data
    with pytest.raises(runtime.SimError) as e:
        run(built, 3, x, g)
    line = next(i for i, t in enumerate(KERNEL.read_text().splitlines(), 1) if "@split" in t)
    assert f"hl_softmax3.cpp:{line}" in str(e.value) and "splitMeanCnt" in str(e.value)
