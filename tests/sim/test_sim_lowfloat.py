"""The Ascend 950's float8 / float4 kernel types (opkg_sim/basic_api/core/lowfloat.h) on the sim,
built for Ascend950PR_9599: every code decodes to ml_dtypes' value, and floats at the edges
(max, min subnormal, ties, overflow, inf, NaN) encode as ml_dtypes rounds them, except where the
devkit's Reg::Cast page gives the device another rule (asserted separately below)."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, TensorSpec
from opkg.core.socs import get_soc
from opkg.sim import runtime
import simbuild

OP = OpSpec("LowFloatCast", (TensorSpec("x", ("int32",)),), (TensorSpec("z", ("int32",)),),
            (AttrSpec("which", "int", required=True),))
WORDS = 256
# key of the encode case (decode is +10), ml_dtypes type (None: emulated here, no ml_dtypes type)
TYPES = {"fp8_e4m3fn": (1, ml_dtypes.float8_e4m3fn), "fp8_e5m2": (2, ml_dtypes.float8_e5m2),
         "fp8_e8m0": (3, ml_dtypes.float8_e8m0fnu), "fp4_e2m1": (4, ml_dtypes.float4_e2m1fn),
         "fp4_e1m2": (5, None)}
CODES = {"fp4_e2m1": 16, "fp4_e1m2": 16}
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


@pytest.fixture(scope="module")
def built(pkgs, lib_cache):
    return simbuild.build(pkgs / "lowfloat", OP, OP.variant("int32"), get_soc("Ascend950PR_9599"),
                          lib_cache, stem="low_float_cast")


def run(built, which, x):
    x = np.ascontiguousarray(x)
    words = np.zeros(WORDS, np.int32)
    words.view(np.uint8)[:x.nbytes] = x.view(np.uint8).ravel()
    z = np.zeros(WORDS, np.int32)
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": words}, {"z": z},
                     {"which": which})
    return z


def e1m2_values() -> np.ndarray:
    """float4_e1m2 (no ml_dtypes type): sign, 1 exponent bit, 2 mantissa bits, bias 1, no inf
    or NaN: 0, 0.25, ..., 1.75 (step 0.25, as ops-nn's quant goldens compute it)."""
    mags = np.array([m * 0.25 for m in range(4)] + [1 + m * 0.25 for m in range(4)], np.float32)
    return np.concatenate([mags, -mags])


def reference_values(name: str) -> np.ndarray:
    key, t = TYPES[name]
    n = CODES.get(name, 256)
    if t is None:
        return e1m2_values()
    return np.arange(n, dtype=np.uint8).view(t).astype(np.float32)


@pytest.mark.parametrize("name", TYPES)
def test_every_code_decodes_to_its_value(built, name):
    key, _ = TYPES[name]
    n = CODES.get(name, 256)
    got = run(built, key + 10, np.arange(n, dtype=np.uint8)).view(np.float32)[:n]
    want = reference_values(name)
    np.testing.assert_array_equal(got, want)      # NaN where NaN, signed zeros, infinities


def encode(built, name, x):
    got = run(built, TYPES[name][0], np.asarray(x, np.float32)).view(np.uint8)[:len(x)]
    return got


def edges(name: str) -> np.ndarray:
    """Every representable value, each midpoint between neighbours (a tie: rounds to even), and
    points a quarter-ulp either side of each midpoint, with both signs."""
    vals = np.unique(reference_values(name)[~np.isnan(reference_values(name))])
    vals = vals[np.isfinite(vals)]
    mids = (vals[:-1].astype(np.float64) + vals[1:]) / 2
    gaps = np.diff(vals.astype(np.float64)) / 4
    pts = np.concatenate([vals, mids, mids - gaps, mids + gaps]).astype(np.float32)
    return np.unique(pts)


@pytest.mark.parametrize("name", ["fp8_e4m3fn", "fp8_e5m2", "fp4_e2m1"])
def test_finite_floats_round_like_ml_dtypes(built, name):
    t = TYPES[name][1]
    x = edges(name)
    if name != "fp4_e2m1":
        top = float(ml_dtypes.finfo(t).max)
        tiny = float(ml_dtypes.finfo(t).smallest_subnormal)
        x = np.concatenate([x, np.float32([top, top * 1.03, top * 1.2, tiny, tiny / 2, tiny * 0.51,
                                           tiny * 1.5, 1e-30, 3e38])])
    for chunk in np.array_split(x, -(-len(x) // WORDS)):
        got = encode(built, name, chunk).view(t).astype(np.float32)
        want = chunk.astype(t).astype(np.float32)
        np.testing.assert_array_equal(got, want, err_msg=f"{name} from {chunk}")


def test_e1m2_rounds_to_nearest_even_and_saturates(built):
    x = np.float32([0.125, 0.375, 0.1, 0.2, 1.125, 1.875, 1.8, 2.5, -1.0, -0.875, 1e9, -np.inf])
    got = encode(built, "fp4_e1m2", x)
    lut = e1m2_values()
    np.testing.assert_array_equal(lut[got], np.float32([0, 0.5, 0, 0.25, 1.0, 1.75, 1.75, 1.75,
                                                        -1.0, -1.0, 1.75, -1.75]))


def test_e8m0_rounds_the_scale_like_ml_dtypes(built):
    x = np.float32([1.0, 1.4, 1.5, 1.6, 0.75, 3.0, 1e6, 2.0 ** -127, 2.0 ** -126, 2.0 ** 127,
                    2.0 ** 127 * 1.4, 1e-38, 123.0])
    got = encode(built, "fp8_e8m0", x)
    np.testing.assert_array_equal(got, x.astype(ml_dtypes.float8_e8m0fnu).view(np.uint8))


def test_out_of_range_and_nan_follow_the_devkit_cast_rules(built):
    """asc-devkit Reg::Cast, non-saturating mode: e4m3fn has no inf, so overflow and inf give
    NaN; e5m2 overflows to inf; fp4 saturates to the signed maximum and NaN gives 0; e8m0 gives
    0xfe for inf and magnitudes above 2^127, 0xff for NaN."""
    x = np.float32([np.inf, -np.inf, 1e6, -1e6, np.nan])
    e4 = encode(built, "fp8_e4m3fn", x).view(ml_dtypes.float8_e4m3fn).astype(np.float32)
    assert np.isnan(e4).all() and list(np.signbit(e4[:4])) == [False, True, False, True]
    e5 = encode(built, "fp8_e5m2", x).view(ml_dtypes.float8_e5m2).astype(np.float32)
    assert list(e5[:4]) == [np.inf, -np.inf, np.inf, -np.inf] and np.isnan(e5[4])
    fp4 = encode(built, "fp4_e2m1", x).view(ml_dtypes.float4_e2m1fn).astype(np.float32)
    assert list(fp4) == [6.0, -6.0, 6.0, -6.0, 0.0] and not np.signbit(fp4[4])
    e8 = encode(built, "fp8_e8m0", np.float32([np.inf, 3e38, np.nan]))
    assert list(e8) == [0xfe, 0xfe, 0xff]        # ml_dtypes gives NaN for the first two


def test_the_manifest_dtypes_load_as_ml_dtypes():
    from opkg.core.model import DTYPES, PACKED_DTYPES, numpy_dtype

    for name, t in (("float8_e4m3fn", ml_dtypes.float8_e4m3fn), ("float8_e5m2", ml_dtypes.float8_e5m2),
                    ("float8_e8m0", ml_dtypes.float8_e8m0fnu), ("float4_e2m1", ml_dtypes.float4_e2m1fn),
                    ("float6_e3m2", ml_dtypes.float6_e3m2fn), ("float6_e2m3", ml_dtypes.float6_e2m3fn)):
        assert numpy_dtype(name) == np.dtype(t)
    assert DTYPES["hifloat8"].numpy is None and PACKED_DTYPES["float4_e1m2"].numpy is None
    rows = list(DTYPES.values()) + list(PACKED_DTYPES.values())
    assert len({d.ge_value for d in rows}) == len(rows) and len({d.ge for d in rows}) == len(rows)
    assert [(d.ge, d.ge_value) for d in rows if d.ge_value >= 34] == [
        ("DT_HIFLOAT8", 34), ("DT_FLOAT8_E5M2", 35), ("DT_FLOAT8_E4M3FN", 36), ("DT_FLOAT8_E8M0", 37),
        ("DT_FLOAT6_E3M2", 38), ("DT_FLOAT6_E2M3", 39), ("DT_FLOAT4_E2M1", 40), ("DT_FLOAT4_E1M2", 41)]
