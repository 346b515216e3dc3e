"""HiFloat8 on the NumPy side, emulated (ml_dtypes has no such type): codes as uint8 arrays,
decoded to float32 and encoded from floats the way the sim's kernel type does
(opkg/sim/include/opkg_sim/basic_api/core/lowfloat.h, `hifloat8_format`, which gives the encoding).

Encoding rounds to the nearest representable value, ties away from zero (the devkit's
CAST_ROUND); a magnitude whose rounding reaches 1.5 * 2^15 is +-inf, or +-2^15 when saturating
(NaN then gives 0). There is no negative zero: 0x80 is NaN.
"""

from __future__ import annotations

from functools import lru_cache

NAN_CODE = 0x80
INF_CODE = 0x6F
MAX_VALUE = 32768.0


def _magnitude(code: int) -> float:
    """The value of a code without its sign bit (0x00..0x7f)."""
    if code == INF_CODE:
        return float("inf")
    if code < 0x08:                                   # 0000 mmm: zero and the subnormals
        return 0.0 if code == 0 else 2.0 ** (code - 23)
    if code < 0x10:                                   # 0001 mmm: exponent 0
        neg, e, bits = False, 0, 3
    elif code < 0x20:                                 # 001 s mmm: |e| = 1
        neg, e, bits = bool(code >> 3 & 1), 1, 3
    elif code < 0x40:                                 # 01 s e mmm: |e| = 2..3
        neg, e, bits = bool(code >> 4 & 1), 2 + (code >> 3 & 1), 3
    elif code < 0x60:                                 # 10 s ee mm: |e| = 4..7
        neg, e, bits = bool(code >> 4 & 1), 4 + (code >> 2 & 3), 2
    else:                                             # 11 s eee m: |e| = 8..15
        neg, e, bits = bool(code >> 4 & 1), 8 + (code >> 1 & 7), 1
    mant = code & ((1 << bits) - 1)
    return (1.0 + mant / (1 << bits)) * 2.0 ** (-e if neg else e)


@lru_cache(maxsize=None)
def _tables():
    import numpy as np

    values = np.array([_magnitude(c) for c in range(128)], np.float64)
    lut = np.concatenate([values, -values]).astype(np.float32)
    lut[NAN_CODE] = np.nan
    finite = [c for c in range(128) if c != INF_CODE]
    order = sorted(finite, key=lambda c: values[c])
    # the magnitudes in order, and past 2^15 the value 1.5 * 2^15, which rounds to overflow
    mags = np.array([values[c] for c in order] + [1.5 * MAX_VALUE], np.float64)
    codes = np.array(order + [INF_CODE], np.uint8)
    return lut, mags, codes


def decode(codes):
    """float32 values of an array of HiFloat8 codes (any integer dtype of bytes)."""
    import numpy as np

    lut, _, _ = _tables()
    return lut[np.asarray(codes).astype(np.uint8)]


def encode(values, saturate: bool = False):
    """uint8 HiFloat8 codes of float values: to nearest, ties away from zero."""
    import numpy as np

    _, mags, codes = _tables()
    x = np.asarray(values, np.float64)
    a = np.abs(x)
    lo = np.clip(np.searchsorted(mags, a, side="right") - 1, 0, len(mags) - 2)
    up = (a - mags[lo]) >= (mags[lo + 1] - a)
    pick = np.where(a >= mags[-1], len(mags) - 1, np.where(up, lo + 1, lo))
    out = codes[pick]
    if saturate:
        out = np.where(out == INF_CODE, codes[-2], out)
    out = np.where(np.signbit(x) & (out != 0), out | 0x80, out).astype(np.uint8)
    return np.where(np.isnan(x), 0 if saturate else NAN_CODE, out).astype(np.uint8)
