"""Eye (cann-ops src/math/eye): y = a batch of identity matrices: y[..., i, i] = 1 for i < min(num_rows, num_columns) (num_columns 0: square). y is a ref tensor (the OpDef's input and output share the name y; the kernel writes only the diagonal of y_ref, so the rest is the input's; the op's example passes zeros; the cases pass values near zero, so that an element the kernel must leave alone is seen to keep its value). Cases from tests/st/Eye_case_all_type.json and examples gen_data.py ([3, 4, 18, 10], batch_shape [3, 4]) plus a square one."""
import numpy as np
PATH = "src/math/eye"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_3x4x18x10", "shapes": {"y": [3, 4, 18, 10]}, "attrs": {"num_rows": 18, "num_columns": 10, "batch_shape": [3, 4], "dtype": 0},
     "ranges": {"y": [-0.01, 0.01]}},
    {"name": "square_33", "shapes": {"y": [33, 33]}, "attrs": {"num_rows": 33, "num_columns": 0, "batch_shape": [], "dtype": 0},
     "ranges": {"y": [-0.01, 0.01]}},
]


def golden(y, *, num_rows, num_columns=0, batch_shape=(), dtype=0):
    out = y.astype(np.float64)
    k = min(num_rows, num_columns or num_rows)
    out[..., np.arange(k), np.arange(k)] = 1.0
    return out


OUT_OF_SCOPE = None
