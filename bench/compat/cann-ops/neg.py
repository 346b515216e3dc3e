"""Neg (cann-ops src/math/neg): y = -x (int8 wraps: -(-128) = -128). Cases from tests/st/Neg_case_all_type.json ([8, 2048] in [0.1, 1]) and examples gen_data.py ([1, 1] in [-5, 5]) plus a ragged one."""
import numpy as np
PATH = "src/math/neg"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_8x2048", "shapes": {"x": [8, 2048]}, "attrs": {}, "ranges": {"x": [0.1, 1.0]}},
    {"name": "gen_1x1", "shapes": {"x": [1, 1]}, "attrs": {}, "ranges": {"x": [-5.0, 5.0]}},
    {"name": "ragged", "shapes": {"x": [3, 1001]}, "attrs": {}, "ranges": {"x": [-100.0, 100.0]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(x):
    if np.issubdtype(x.dtype, np.integer):
        return (-x.astype(np.int64)).astype(x.dtype)
    return -x.astype(np.float32)


OUT_OF_SCOPE = None
