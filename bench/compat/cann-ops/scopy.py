"""Scopy (cann-ops src/math/scopy): BLAS scopy, y[i * incy] = x[i * incx] for i < n (float32). Case from examples gen_data.py (n = 2048, unit strides) plus a ragged length. Built for Ascend910B4: the tiling fills per-core arrays of 40 entries (MAX_ARRAY_NUM) for GetCoreNumAiv() cores, so on a 48-core 910B1/B2 it writes past them (undefined there); 910B3/B4 have 40."""
import numpy as np
PATH = "src/math/scopy"
SOCS = ["Ascend910B4"]
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
