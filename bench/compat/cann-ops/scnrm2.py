"""Scnrm2 (cann-ops src/math/scnrm2): BLAS scnrm2: result = the Euclidean norm sqrt(sum |x|**2) over n elements of x with stride incx. Its InferShape gives result x's shape, though the kernel writes one value and the op's example allocates [1]: cases state output_shapes [1]. Cases from examples gen_data.py (complex64 [2043]; ones there, random here) plus a small one and a stride. Built for Ascend910B4: the tiling fills per-core arrays of 40 entries (MAX_ARRAY_NUM) for GetCoreNumAiv() cores, so on a 48-core 910B1/B2 it writes past them (undefined there); 910B3/B4 have 40."""
import numpy as np
PATH = "src/math/scnrm2"
SOCS = ["Ascend910B4"]
CASES = [
    {"name": "gen_2043", "shapes": {"x": [2043]}, "attrs": {"n": 2043, "incx": 1}, "ranges": {}, "output_shapes": {"result": [1]}},
    {"name": "small_13", "shapes": {"x": [13]}, "attrs": {"n": 13, "incx": 1}, "ranges": {}, "output_shapes": {"result": [1]}},
    {"name": "stride2", "shapes": {"x": [1000]}, "attrs": {"n": 500, "incx": 2}, "ranges": {}, "output_shapes": {"result": [1]}},
]


def golden(x, *, n=0, incx=1):
    v = x.reshape(-1)[: (n or x.size) * incx: incx]
    return np.array([np.sqrt((np.abs(v.astype(np.complex128)) ** 2).sum())], dtype=np.float64)


OUT_OF_SCOPE = None
