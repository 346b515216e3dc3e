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
    assert PACKED_DTYPES["float4_e1m2"].numpy is None
    assert DTYPES["hifloat8"].numpy == "hifloat8"          # en_dtypes' (test below)
    rows = list(DTYPES.values()) + list(PACKED_DTYPES.values())
    assert len({d.ge_value for d in rows}) == len(rows) and len({d.ge for d in rows}) == len(rows)
    assert [(d.ge, d.ge_value) for d in rows if d.ge_value >= 34] == [
        ("DT_HIFLOAT8", 34), ("DT_FLOAT8_E5M2", 35), ("DT_FLOAT8_E4M3FN", 36), ("DT_FLOAT8_E8M0", 37),
        ("DT_FLOAT6_E3M2", 38), ("DT_FLOAT6_E2M3", 39), ("DT_FLOAT4_E2M1", 40), ("DT_FLOAT4_E1M2", 41)]


# HiFloat8: no ml_dtypes type; opkg's NumPy-side emulation (opkg/core/hifloat8.py) and the
# kernel type (lowfloat.h) are checked against codes worked out by hand from the format, then
# against each other over every code and every rounding edge.
HIF8_KNOWN = {0x00: 0.0, 0x01: 2.0 ** -22, 0x07: 2.0 ** -16, 0x08: 1.0, 0x0F: 1.875, 0x10: 2.0,
              0x18: 0.5, 0x2E: 14.0, 0x38: 0.125, 0x44: 32.0, 0x5C: 2.0 ** -7, 0x60: 256.0,
              0x61: 384.0, 0x6E: 32768.0, 0x6F: np.inf, 0x7E: 2.0 ** -15, 0x7F: 1.5 * 2.0 ** -15,
              0x88: -1.0, 0xEF: -np.inf}


def test_hifloat8_codes_decode_to_the_values_of_the_format(built):
    from opkg.core import hifloat8

    codes = np.arange(256, dtype=np.uint8)
    ours = hifloat8.decode(codes)
    for code, value in HIF8_KNOWN.items():
        assert ours[code] == np.float32(value), hex(code)
    assert np.isnan(ours[0x80]) and np.isnan(ours).sum() == 1
    got = run(built, 16, codes).view(np.float32)[:256]
    np.testing.assert_array_equal(got, ours)


def hif8_edges() -> np.ndarray:
    from opkg.core import hifloat8

    vals = hifloat8.decode(np.arange(256, dtype=np.uint8)).astype(np.float64)
    vals = np.unique(vals[np.isfinite(vals)])
    mids = (vals[:-1] + vals[1:]) / 2
    gaps = np.diff(vals) / 4
    top = 32768.0
    pts = np.concatenate([vals, mids, mids - gaps, mids + gaps,
                          [top * 1.25, top * 1.25 - 1, top * 1.5, 1e30, np.inf, -np.inf, np.nan,
                           2.0 ** -23, 2.0 ** -23 * 0.99, 1e-30]])
    return pts.astype(np.float32)


def test_hifloat8_encodes_to_nearest_ties_away(built):
    from opkg.core import hifloat8

    x = hif8_edges()
    assert list(hifloat8.encode(np.float32([1.0625, -1.0625, 2.125, 40960.0, 40959.0, 2.0 ** -23]))) == \
        [0x09, 0x89, 0x11, 0x6F, 0x6E, 0x01]          # ties away; 1.25 * 2^15 is the overflow tie
    for chunk in np.array_split(x, -(-len(x) // WORDS)):
        got = run(built, 6, chunk).view(np.uint8)[:len(chunk)]
        np.testing.assert_array_equal(got, hifloat8.encode(chunk), err_msg=f"from {chunk}")


def test_the_numpy_hifloat8_matches_en_dtypes_where_installed():
    """A cross-check with the package ops-nn's goldens cast with (not a dependency of opkg)."""
    en_dtypes = pytest.importorskip("en_dtypes")
    from opkg.core import hifloat8

    codes = np.arange(256, dtype=np.uint8)
    np.testing.assert_array_equal(hifloat8.decode(codes), codes.view(en_dtypes.hifloat8).astype(np.float32))
    x = hif8_edges()
    np.testing.assert_array_equal(hifloat8.encode(x), x.astype(en_dtypes.hifloat8).view(np.uint8))


def reg_cast(built, which, x):
    return run(built, which, x).view(np.uint8)


def test_register_cast_to_hifloat8_rounds_and_saturates_by_its_trait(built):
    from opkg.core import hifloat8

    x = np.float32([1.0625, -2.125, 14.2, 40960.0, 1e9, -np.inf, np.nan, 3e-5] * 8)
    for key, sat in ((21, False), (22, True), (23, False)):
        z = reg_cast(built, key, x)
        np.testing.assert_array_equal(z[0::4][:64], hifloat8.encode(x, saturate=sat), err_msg=str(key))
        assert not z.reshape(-1, 4)[:, 1:].any()             # RegLayout::ZERO: bytes 4i only
    sat = reg_cast(built, 22, x)[0::4][:8]
    assert list(hifloat8.decode(sat)[[3, 4, 5]]) == [32768.0, 32768.0, -32768.0] and sat[6] == 0


def test_register_cast_from_hifloat8_reads_every_fourth_byte(built):
    from opkg.core import hifloat8

    codes = np.arange(256, dtype=np.uint8)
    z = run(built, 24, codes).view(np.float32)[:64]
    np.testing.assert_array_equal(z, hifloat8.decode(codes[0::4]))


def int4(values) -> np.ndarray:
    return np.asarray(values, np.int64) & 0xF


def test_register_cast_to_int4x2_packs_pairs_by_layout_rounding_and_saturation(built):
    h = np.float16([1.5, 2.5, -0.5, -1.5, 7.6, -8.4, 9.0, -20.0] * 16)
    z = reg_cast(built, 25, h)                                 # RINT, no saturation, layout ZERO
    rint = np.rint(h.astype(np.float64)).astype(np.int64)
    want = (int4(rint[0::2]) | int4(rint[1::2]) << 4).astype(np.uint8)
    np.testing.assert_array_equal(z[0::4][:64], want)          # 9 -> -7, -20 -> -4: the low bits
    assert not z.reshape(-1, 4)[:, 1:].any()
    z = reg_cast(built, 26, h)                                 # FLOOR, saturating, layout ONE
    fl = np.clip(np.floor(h.astype(np.float64)), -8, 7).astype(np.int64)
    want = (int4(fl[0::2]) | int4(fl[1::2]) << 4).astype(np.uint8)
    np.testing.assert_array_equal(z[1::4][:64], want)
    assert not z[0::4].any() and not z[2::4].any() and not z[3::4].any()


def test_register_cast_from_int4x2_sign_extends_each_nibble(built):
    b = np.arange(256, dtype=np.uint8)
    z = run(built, 27, b).view(np.float16)[:128]
    lo = (b[0::4] & 0xF).astype(np.int64)
    hi = (b[0::4] >> 4).astype(np.int64)
    vals = np.stack([np.where(lo > 7, lo - 16, lo), np.where(hi > 7, hi - 16, hi)], axis=1).ravel()
    np.testing.assert_array_equal(z, vals.astype(np.float16))


def test_register_cast_between_bfloat16_and_fp4_e2m1_pairs(built):
    bf = np.array([0.3, 0.8, 1.7, -2.9, 5.9, -7.0, np.inf, np.nan] * 16, ml_dtypes.bfloat16)
    z = reg_cast(built, 28, bf)                                # TRUNC, layout TWO
    mags = np.float32([0, 0.5, 1, 1.5, 2, 3, 4, 6])
    a = np.abs(bf.astype(np.float32))
    codes = np.where(np.isnan(a), 0, np.searchsorted(mags, np.minimum(a, 6), side="right") - 1)
    codes = np.where(np.signbit(bf.astype(np.float32)) & ~np.isnan(a), codes | 8, codes).astype(np.uint8)
    want = (codes[0::2] | codes[1::2] << 4).astype(np.uint8)
    np.testing.assert_array_equal(z[2::4][:64], want)
    back = run(built, 29, z).view(ml_dtypes.bfloat16)[:128].astype(np.float32)
    np.testing.assert_array_equal(back, np.concatenate([mags, -mags])[codes])


def test_hifloat8_is_en_dtypes_type_where_installed_and_a_usage_error_where_not(monkeypatch):
    import sys

    from opkg.core.errors import UsageError
    from opkg.core.model import has_numpy, numpy_dtype

    try:
        import en_dtypes
    except ImportError:
        en_dtypes = None
    if en_dtypes is not None:
        assert has_numpy("hifloat8") and numpy_dtype("hifloat8") == np.dtype(en_dtypes.hifloat8)
    monkeypatch.setitem(sys.modules, "en_dtypes", None)          # as if not installed
    monkeypatch.setattr("importlib.util.find_spec", lambda name, *a: None)
    assert not has_numpy("hifloat8")
    with pytest.raises(UsageError, match="en_dtypes"):
        numpy_dtype("hifloat8")


def test_a_golden_may_return_hifloat8_arrays_or_floats_for_a_hifloat8_output():
    en_dtypes = pytest.importorskip("en_dtypes")
    from opkg.core.model import numpy_dtype
    from opkg.verify.runner import _expected_array

    dtype = numpy_dtype("hifloat8")
    x = np.float32([1.0625, -14.2, 40960.0])
    for given in (x.astype(en_dtypes.hifloat8), x):       # the golden's own cast, or floats
        got = _expected_array(given, dtype, "y")
        assert got.dtype == dtype and list(got.astype(np.float32)) == [1.125, -14.0, np.inf]
