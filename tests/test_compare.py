import numpy as np

from opkg.verify.compare import compare, suspicious_golden
from opkg.verify.inputs import make_input


def test_exact_match_passes():
    a = np.arange(64, dtype=np.float32)
    r = compare(a, a.copy(), 1e-4, 1e-4, 0.0)
    assert r["passed"] and r["mismatches"] == 0 and r["max_abs_error"] == 0


def test_error_ratio_rule():
    expected = np.ones(1000, dtype=np.float32)
    actual = expected.copy()
    actual[:2] = 2.0          # 0.2% of elements wrong
    assert not compare(actual, expected, 1e-3, 1e-3, 1e-3)["passed"]
    r = compare(actual, expected, 1e-3, 1e-3, 2e-3)
    assert r["passed"] and r["mismatches"] == 2 and r["mismatch_ratio"] == 0.002
    assert r["first_mismatch"] == {"index": [0], "actual": 2.0, "expected": 1.0}
    assert r["max_abs_error"] == 1.0


def test_first_mismatch_index_is_multidimensional():
    e = np.zeros((4, 8), dtype=np.float16)
    a = e.copy()
    a[2, 5] = 1
    r = compare(a, e, 1e-3, 1e-3, 0)
    assert r["first_mismatch"]["index"] == [2, 5]


def test_unwritten_output_nan_is_a_mismatch_and_nan_matches_nan():
    e = np.ones(4, dtype=np.float32)
    a = e.copy()
    a[3] = np.nan
    r = compare(a, e, 1e-3, 1e-3, 0)
    assert not r["passed"] and r["first_mismatch"]["actual"] == "nan"
    both = np.array([np.nan, 1.0])
    assert compare(both, both.copy(), 0, 0, 0)["passed"]


def test_an_element_the_kernel_never_wrote_mismatches_even_a_nan_golden():
    e = np.full(4, np.nan, dtype=np.float32)
    a = e.copy()                           # the NaN pre-fill, untouched
    unwritten = np.array([False, True, True, False])
    r = compare(a, e, 1e-3, 1e-3, 0, unwritten=unwritten)
    assert not r["passed"] and r["mismatches"] == 2 and r["unwritten"] == 2
    assert r["first_mismatch"] == {"index": [1], "actual": "not written", "expected": "nan"}
    assert compare(a, e, 1e-3, 1e-3, 0, unwritten=np.zeros(4, bool))["passed"]
    ints = np.full((2, 2), np.iinfo(np.int32).min, np.int32)   # the integer pre-fill
    assert not compare(ints, ints.copy(), 0, 0, 0, unwritten=np.ones((2, 2), bool))["passed"]


def test_an_all_nan_or_all_inf_golden_is_suspicious():
    assert suspicious_golden(np.full(3, np.nan, np.float32), "float32") == "all NaN"
    assert suspicious_golden(np.array([np.inf, -np.inf], np.float16), "float16") == "all infinite"
    assert suspicious_golden(np.array([np.nan, 1.0], np.float32), "float32") is None
    assert suspicious_golden(np.array([np.nan, np.inf], np.float32), "float32") is None
    assert suspicious_golden(np.zeros(0, np.float32), "float32") is None
    assert suspicious_golden(np.zeros(3, np.int8), "int8") is None


def test_an_all_nan_bfloat16_golden_is_suspicious():
    # bfloat16 (ml_dtypes) has NumPy kind 'V': the manifest dtype says it is a float
    from opkg.core.model import numpy_dtype

    bf16 = numpy_dtype("bfloat16")
    assert suspicious_golden(np.full(4, np.nan).astype(bf16), "bfloat16") == "all NaN"
    assert suspicious_golden(np.full(4, -np.inf).astype(bf16), "bfloat16") == "all infinite"
    assert suspicious_golden(np.ones(4).astype(bf16), "bfloat16") is None


def test_shape_mismatch():
    r = compare(np.zeros((2, 3)), np.zeros((3, 2)), 0, 0, 0)
    assert not r["passed"] and "differs from the golden" in r["error"]
    # the same keys as any comparison: a report reader needs no special case
    assert set(r) == set(compare(np.zeros(2), np.zeros(2), 0, 0, 0))


def test_inputs_are_seeded_and_variant_independent():
    a = make_input(0, "case", "x", (16,), "float32", (-2, 2))
    b = make_input(0, "case", "x", (16,), "float32", (-2, 2))
    h = make_input(0, "case", "x", (16,), "float16", (-2, 2))
    assert np.array_equal(a, b)
    assert np.array_equal(h, a.astype(np.float16))
    assert not np.array_equal(a, make_input(1, "case", "x", (16,), "float32", (-2, 2)))
    assert not np.array_equal(a, make_input(0, "case", "y", (16,), "float32", (-2, 2)))
    assert a.min() >= -2 and a.max() <= 2
    ints = make_input(0, "c", "i", (100,), "int8", (-3, 3))
    assert ints.dtype == np.int8 and ints.min() >= -3 and ints.max() <= 3


def test_an_integer_range_past_the_dtype_saturates_to_its_limits():
    # ops-nn's index_fill table gives `value` the range (-FLT_MAX, -FLT_MAX) in its float32
    # rows, which the int32 variant also runs: every element int32's minimum
    low = make_input(0, "c", "v", (4,), "int32", (-3.4028235e+38, -3.4028235e+38))
    assert low.tolist() == [np.iinfo(np.int32).min] * 4
    high = make_input(0, "c", "v", (4,), "int8", (200, 1e9))
    assert high.tolist() == [127] * 4
    wide = make_input(0, "c", "v", (64,), "int8", (-1e9, 1e9))
    assert wide.min() >= -128 and wide.max() <= 127 and len(set(wide.tolist())) > 1


def test_an_output_that_is_infinite_on_both_sides_everywhere_has_no_error():
    """An fp16 case whose inputs all overflow gives inf everywhere, in the kernel and the golden
    alike: that passes with a finite (zero) error, which a report can hold; one mismatch among
    such elements is an infinite error, and +inf never matches an expected -inf (rtol times an
    infinite expected value is no tolerance)."""
    inf = np.full(4, np.inf, np.float16)
    r = compare(inf, inf.copy(), 1e-3, 1e-3, 0.0)
    assert r["passed"] and r["max_abs_error"] == 0.0 and r["max_rel_error"] == 0.0
    r = compare(inf, -inf, 1e-3, 1e-3, 0.0)
    assert not r["passed"] and r["max_abs_error"] == float("inf")


def _rounded_to_bfloat16(values: np.ndarray) -> np.ndarray:
    bits = values.astype(np.float32).view(np.uint32)
    return ((bits + 0x8000) & 0xFFFF0000).astype(np.uint32).view(np.float32)


def test_golden_precision_reads_a_float32_golden_rounded_through_a_narrower_float():
    from opkg.verify.compare import golden_precision

    values = np.random.default_rng(0).uniform(-1, 1, 256).astype(np.float32)
    assert golden_precision(values, "float32") is None
    assert golden_precision(_rounded_to_bfloat16(values), "float32") == "bfloat16"
    assert golden_precision(values.astype(np.float16).astype(np.float32), "float32") == "float16"
    # integers and halves are every float's values: no sign of the golden's rounding
    assert golden_precision(np.arange(-64, 64, 0.5, dtype=np.float32), "float32") is None
    # too few values to tell; and only float32 outputs are read
    assert golden_precision(_rounded_to_bfloat16(values[:16]), "float32") is None
    assert golden_precision(values.astype(np.float16), "float16") is None


def test_a_golden_rounded_through_bfloat16_is_compared_with_its_tolerance():
    from opkg.core.manifest import DEFAULT_TOLERANCE
    from opkg.verify.runner import _golden_tolerance

    values = np.random.default_rng(1).uniform(-1, 1, 512).astype(np.float32)
    want = _rounded_to_bfloat16(values)
    tight = DEFAULT_TOLERANCE["float32"]
    # the kernel's float32 result, unrounded, is off the golden by up to half a bfloat16 step
    assert not compare(values, want, **tight)["passed"]
    tol, said = _golden_tolerance("y1", want, "float32", tight)
    assert tol == DEFAULT_TOLERANCE["bfloat16"] and "bfloat16" in said[0]
    assert compare(values, want, **tol)["passed"]
    # a float32 golden keeps float32's tolerance, and a looser one asked is kept
    assert _golden_tolerance("y1", values, "float32", tight) == (tight, [])
    loose = {"rtol": 0.01, "atol": 0.01, "error_ratio": 0.01}
    assert _golden_tolerance("y1", want, "float32", loose) == (loose, [])
    # a dynamic output: every tensor must be rounded so
    assert _golden_tolerance("y", [want, values], "float32", tight) == (tight, [])


def test_golden_precision_leaves_integers_and_short_fractions_alone():
    from opkg.verify.compare import golden_precision

    assert golden_precision(np.arange(0, 300, dtype=np.float32), "float32") is None
    assert golden_precision(np.arange(-256, 256, 0.25, dtype=np.float32) / 4, "float32") is None
