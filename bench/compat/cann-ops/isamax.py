"""Isamax (cann-ops src/math/isamax): BLAS isamax: result = the first 1-based index of the largest |x| over n elements of x with stride incx. Its InferShape gives result x's shape, though the kernel writes one int32 and the op's example allocates [1]: cases state output_shapes [1]. Cases from examples gen_data.py (float32 [2046] in [-1, 1]) plus a small one."""
import numpy as np
PATH = "src/math/isamax"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_2046", "shapes": {"x": [2046]}, "attrs": {"n": 2046, "incx": 1}, "ranges": {}, "output_shapes": {"result": [1]}},
    {"name": "small_13", "shapes": {"x": [13]}, "attrs": {"n": 13, "incx": 1}, "ranges": {}, "output_shapes": {"result": [1]}},
    {"name": "stride2", "shapes": {"x": [1000]}, "attrs": {"n": 500, "incx": 2}, "ranges": {}, "output_shapes": {"result": [1]}},
]


def golden(x, *, n=0, incx=1):
    v = x.reshape(-1)[: (n or x.size) * incx: incx]
    return np.array([np.argmax(np.abs(v)) + 1], dtype=np.int32)


OUT_OF_SCOPE = None
