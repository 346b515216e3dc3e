"""Ccopy (cann-ops src/math/ccopy): BLAS ccopy on complex64 vectors, y[i * incy] = x[i * incx] for i < n. Case from examples gen_data.py (n = 2048, unit strides; the example's x is all ones, here random)."""
import numpy as np
PATH = "src/math/ccopy"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_2048", "shapes": {"x": [2048]}, "attrs": {"n": 2048, "incx": 1, "incy": 1}, "ranges": {}},
    {"name": "ragged_1000", "shapes": {"x": [1000]}, "attrs": {"n": 1000, "incx": 1, "incy": 1}, "ranges": {}},
]


def golden(x, *, n=0, incx=1, incy=1):
    y = np.zeros_like(x)
    count = n or x.size
    y[: count * incy: incy] = x[: count * incx: incx]
    return y


OUT_OF_SCOPE = None
