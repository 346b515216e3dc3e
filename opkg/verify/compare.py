"""Tolerance rules for comparing kernel outputs with the golden.

An element mismatches when |actual - expected| > atol + rtol * |expected| (NumPy's allclose;
NaN matches NaN, infinities must match exactly), or when the kernel never stored it (`unwritten`,
from the sim's GM write shadow): the NaN an output is pre-filled with must not pass for a golden
NaN. A case passes when the share of mismatching elements is at most `error_ratio`: CANN's
sample verifiers use that error-ratio rule, and error_ratio 0 is a strict allclose.
"""

from __future__ import annotations

import numpy as np


def compare(actual: np.ndarray, expected: np.ndarray, rtol: float, atol: float,
            error_ratio: float, unwritten: np.ndarray | None = None) -> dict:
    result = {"dtype": str(actual.dtype), "shape": list(actual.shape),
              "elements": int(actual.size), "rtol": rtol, "atol": atol,
              "error_ratio": error_ratio}
    if actual.shape != expected.shape:
        return {**result, "passed": False, "mismatches": int(actual.size),
                "mismatch_ratio": 1.0, "max_abs_error": None, "max_rel_error": None,
                "first_mismatch": None, "unwritten": 0,
                "error": f"shape {list(actual.shape)} differs from the golden's "
                         f"{list(expected.shape)}"}
    a = actual.astype(np.float64).ravel()
    e = expected.astype(np.float64).ravel()
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.abs(a - e)
        both_nan = np.isnan(a) & np.isnan(e)
        same_inf = np.isinf(a) & np.isinf(e) & (np.sign(a) == np.sign(e))
        # an infinite expected value makes rtol * |e| infinite: only the same infinity matches it
        ok = ((diff <= atol + rtol * np.abs(e)) & np.isfinite(diff)) | both_nan | same_inf
        if unwritten is not None:
            ok &= ~unwritten.ravel()
        finite = np.isfinite(diff)
        # relative error only where |expected| is above the absolute tolerance: near zero it
        # says nothing but noise (the atol part of the rule covers those elements)
        meaningful = np.abs(e) > max(atol, 0.0)
        rel = np.where(meaningful, diff / np.where(meaningful, np.abs(e), 1), 0.0)
    bad = np.flatnonzero(~ok)
    count = int(bad.size)
    ratio = count / a.size if a.size else 0.0
    first = None
    if count:
        i = int(bad[0])
        first = {"index": [int(x) for x in np.unravel_index(i, actual.shape)],
                 "actual": "not written" if unwritten is not None and unwritten.ravel()[i]
                 else _num(a[i]), "expected": _num(e[i])}
    # no finite difference at all: every element infinite or NaN on both sides (an fp16 case
    # whose inputs all overflow) is no error; with a mismatch among them it is an infinite one
    max_abs = float(diff[finite].max()) if finite.any() else (None if a.size == 0 else
                                                              (float("inf") if count else 0.0))
    max_rel = float(rel[finite].max()) if finite.any() else max_abs
    if count and not finite.all():
        max_abs = max_rel = float("inf")
    return {**result, "passed": ratio <= error_ratio, "mismatches": count,
            "mismatch_ratio": ratio, "max_abs_error": max_abs, "max_rel_error": max_rel,
            "first_mismatch": first, "error": None,
            "unwritten": int(np.count_nonzero(unwritten)) if unwritten is not None else 0}


def suspicious_golden(expected: np.ndarray, dtype: str) -> str | None:
    """A golden whose output is all NaN or all infinite almost surely computes nothing useful
    (a kernel that writes nothing, or garbage, might still 'match' it): said in the report.
    `dtype` is the output's manifest dtype: bfloat16 is a float whose NumPy kind is 'V'."""
    from opkg.core.model import DTYPES

    if expected.size == 0 or DTYPES[dtype].kind != "float":
        return None
    values = expected.astype(np.float64)
    if np.isnan(values).all():
        return "all NaN"
    if np.isinf(values).all():
        return "all infinite"
    return None


# values of a float32 golden, each within a narrower float, that use that float's last
# mantissa bit, before its precision is read as the golden's own (half of them do where it
# rounds real numbers; few small integers and halves do, and all-integral outputs are not read)
MIN_FULL = 32


def golden_precision(expected: np.ndarray, dtype: str) -> str | None:
    """The narrower float (bfloat16, float16) every finite value of a float32 golden output is
    an exact value of, when enough of them use its last mantissa bit that this is no accident
    and they are not all integers (counts, indexes): the golden rounded the output through
    that float (ops-nn's add_rms_norm_cast golden, for the 910B, gives y1 as its bfloat16 y
    widened), so the expected values carry that float's rounding error and cannot be held to
    float32's tolerance. None otherwise."""
    if dtype != "float32" or expected.dtype != np.float32:
        return None
    values = expected[np.isfinite(expected)].ravel()
    if values.size < MIN_FULL or np.array_equal(values, np.round(values)):
        return None
    bits = values.view(np.uint32)
    # bfloat16 is float32's top 16 bits: its last mantissa bit is float32's bit 16
    if not (bits & 0xFFFF).any():
        if np.count_nonzero(bits & 0x10000) >= MIN_FULL:
            return "bfloat16"
        return None
    with np.errstate(over="ignore"):
        half = values.astype(np.float16)
    if np.array_equal(half.astype(np.float32), values) \
            and np.count_nonzero(half.view(np.uint16) & 1) >= MIN_FULL:
        return "float16"
    return None


def _num(x: float):
    x = float(x)
    if np.isnan(x):
        return "nan"
    if np.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x
