"""ComplexMatDot (cann-ops src/math/complex_mat_dot): result = matx * maty, the element-wise complex64 product of two m x n matrices (m, n attrs). Cases from examples gen_data.py ([156, 1024]) plus a ragged 3 x 5. Built for Ascend910B4: the tiling fills per-core arrays of 40 entries (MAX_ARRAY_NUM) for GetCoreNumAiv() cores, so on a 48-core 910B1/B2 it writes past them (undefined there); 910B3/B4 have 40."""
import numpy as np
PATH = "src/math/complex_mat_dot"
SOCS = ["Ascend910B4"]
CASES = [
    {"name": "gen_156x1024", "shapes": {"matx": [156, 1024], "maty": [156, 1024]}, "attrs": {"m": 156, "n": 1024}, "ranges": {}},
    {"name": "ragged_3x5", "shapes": {"matx": [3, 5], "maty": [3, 5]}, "attrs": {"m": 3, "n": 5}, "ranges": {}},
]


def golden(matx, maty, *, m=1, n=1):
    return (matx.astype(np.complex128) * maty.astype(np.complex128)).astype(np.complex64)


OUT_OF_SCOPE = None
