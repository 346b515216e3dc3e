"""Sscal (cann-ops src/math/sscal): BLAS sscal, in place x[i * incx] *= alpha for i < n. No output in the OpDef: the expected values are x's after the run (INPLACE). Case from examples gen_data.py (2048 elements, alpha 2) plus a ragged length. Built for Ascend910B4: the tiling fills per-core arrays of 40 entries (MAX_ARRAY_NUM) for GetCoreNumAiv() cores, so on a 48-core 910B1/B2 it writes past them (undefined there); 910B3/B4 have 40."""
import numpy as np
PATH = "src/math/sscal"
SOCS = ["Ascend910B4"]
CASES = [
    {"name": "gen_2048", "shapes": {"x": [2048]}, "attrs": {"alpha": 2.0, "n": 2048, "incx": 1}, "ranges": {}},
    {"name": "ragged_1000", "shapes": {"x": [1000]}, "attrs": {"alpha": -0.5, "n": 1000, "incx": 1}, "ranges": {}},
]
INPLACE = ["x"]


def golden(x, *, alpha=1.0, n=0, incx=1):
    out = x.astype(np.float64)
    count = n or x.size
    out[: count * incx: incx] *= alpha
    return (out,)


OUT_OF_SCOPE = None
