"""EyeFp64 (cann-ops src/math/eye_fp64): y = a batch of identity matrices: y[..., i, i] = 1 for i < min(num_rows, num_columns) (num_columns 0: square). y is a ref tensor (the OpDef's input and output share the name y). The README's contract is the identity (diagonal 1, every other element 0); the kernel writes the diagonal, and its SliceInfo paths (the tiling picks them by shape and dtype) also store zeros over whole 32-byte blocks around it, so it relies on y arriving zeroed, as the op's example passes it: the cases pass zeros and the golden is the identity. Cases from examples gen_data.py ([3, 4, 18, 10], batch_shape [3, 4]) plus a square one."""
import numpy as np
PATH = "src/math/eye_fp64"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_3x4x18x10", "shapes": {"y": [3, 4, 18, 10]}, "attrs": {"num_rows": 18, "num_columns": 10, "batch_shape": [3, 4], "dtype": 0},
     "ranges": {"y": [0.0, 0.0]}},
    {"name": "square_33", "shapes": {"y": [33, 33]}, "attrs": {"num_rows": 33, "num_columns": 0, "batch_shape": [], "dtype": 0},
     "ranges": {"y": [0.0, 0.0]}},
]


def golden(y, *, num_rows, num_columns=0, batch_shape=(), dtype=0):
    out = np.zeros(y.shape, np.float64)
    k = min(num_rows, num_columns or num_rows)
    out[..., np.arange(k), np.arange(k)] = 1.0
    return out


OUT_OF_SCOPE = None
