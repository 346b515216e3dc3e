"""Cos (cann-ops src/math/cos): y = cos(x). Cases from tests/st/Cos_case_alltype.json ([100] in [-5, 5]) and examples gen_data.py ([1024, 1024] in [-5, 5]), plus a ragged shape."""
import numpy as np
PATH = "src/math/cos"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_100", "shapes": {"x": [100]}, "attrs": {}, "ranges": {"x": [-5.0, 5.0]}},
    {"name": "gen_1024x1024", "shapes": {"x": [1024, 1024]}, "attrs": {}, "ranges": {"x": [-5.0, 5.0]}},
    {"name": "ragged", "shapes": {"x": [7, 333]}, "attrs": {}, "ranges": {"x": [-5.0, 5.0]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(x):
    return np.cos(x.astype(np.float32))


OUT_OF_SCOPE = None
