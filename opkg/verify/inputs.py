"""Deterministic test inputs: the same seed, case and tensor give the same values on every
machine and for every dtype variant (values are drawn in float64, then cast)."""

from __future__ import annotations

import zlib

import numpy as np

from opkg.core.model import DTYPES, int_limits, numpy_dtype

DEFAULT_RANGE = (-1.0, 1.0)


def case_seed(seed: int, case: str, tensor: str) -> int:
    # crc32 rather than hash(): Python's str hash is salted per process
    return (seed * 1_000_003 + zlib.crc32(f"{case}/{tensor}".encode())) % (2**32)


def make_input(seed: int, case: str, tensor: str, shape, dtype: str, value_range=None) -> np.ndarray:
    info = DTYPES[dtype]
    rng = np.random.default_rng(case_seed(seed, case, tensor))
    lo, hi = value_range or DEFAULT_RANGE
    if info.kind == "bool":
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if info.kind in ("int", "uint"):
        # both ends saturate into what the dtype holds: a range written for a float variant
        # (an ops repository's ttk row of float32, -FLT_MAX) wholly below int32's gives its
        # minimum, as a saturating cast would, not an empty range
        low, high = int_limits(dtype)
        clamp = lambda v: min(max(v, low), high)  # noqa: E731
        lo, hi = clamp(int(np.floor(lo))), clamp(int(np.ceil(hi)))
        return rng.integers(lo, hi, size=shape, endpoint=True).astype(numpy_dtype(dtype))
    if info.kind == "complex":   # real and imaginary parts each drawn from the range
        parts = rng.uniform(lo, hi, size=tuple(shape) + (2,))
        return np.ascontiguousarray((parts[..., 0] + 1j * parts[..., 1]).astype(numpy_dtype(dtype)))
    return np.ascontiguousarray(rng.uniform(lo, hi, size=shape).astype(numpy_dtype(dtype)))


def exact_input(values, shape, dtype: str) -> np.ndarray:
    """An input given element by element (a case's `values`): every value must survive the cast
    to the variant's dtype unchanged, since shapes, modes and lengths are read as data."""
    want = np.asarray(values, dtype=np.float64).reshape(shape)
    out = np.ascontiguousarray(want.astype(numpy_dtype(dtype)))
    back = out.astype(np.float64)
    bad = np.flatnonzero(back.reshape(-1) != want.reshape(-1))
    if bad.size:
        k = int(bad[0])
        raise ValueError(f"value {want.reshape(-1)[k]:g} (element {k}) is not exact in {dtype} "
                         f"(it would be {back.reshape(-1)[k]:g})")
    return out
