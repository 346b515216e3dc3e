"""Reciprocal (cann-ops src/math/reciprocal): y = 1 / x. Cases from tests/st/Reciprocal_case_alltype.json ([100] in [0.1, 1]) and examples gen_data.py ([100, 100] in [1, 4]) plus a ragged shape."""
import numpy as np
PATH = "src/math/reciprocal"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_100", "shapes": {"x": [100]}, "attrs": {}, "ranges": {"x": [0.1, 1.0]}},
    {"name": "gen", "shapes": {"x": [100, 100]}, "attrs": {}, "ranges": {"x": [1.0, 4.0]}},
    {"name": "ragged", "shapes": {"x": [3, 1001]}, "attrs": {}, "ranges": {"x": [1.0, 4.0]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(x):
    v = x.astype(np.float32)
    return 1.0 / v


OUT_OF_SCOPE = None
