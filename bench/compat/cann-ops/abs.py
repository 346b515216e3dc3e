"""Abs (cann-ops src/math/abs): y = |x| (for complex64, the modulus). Cases from tests/st/Abs_case_alltype.json ([1], [7], [8, 1], [8]) and examples gen_data.py, values in [-5, 5]."""
import numpy as np
PATH = "src/math/abs"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_1", "shapes": {"x": [1]}, "attrs": {}, "ranges": {"x": [-5.0, 5.0]}},
    {"name": "st_7", "shapes": {"x": [7]}, "attrs": {}, "ranges": {"x": [-5.0, 5.0]}},
    {"name": "st_8x1", "shapes": {"x": [8, 1]}, "attrs": {}, "ranges": {"x": [-5.0, 5.0]}},
    {"name": "rows", "shapes": {"x": [64, 1000]}, "attrs": {}, "ranges": {"x": [-5.0, 5.0]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(x):
    if np.issubdtype(x.dtype, np.integer) or np.iscomplexobj(x):
        return np.abs(x)
    return np.abs(x.astype(np.float32))


OUT_OF_SCOPE = None
