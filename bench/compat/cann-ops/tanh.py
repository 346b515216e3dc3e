"""Tanh (cann-ops src/math/tanh): y = tanh(x). Cases from tests/st/Tanh_case_alltype.json ([100] in [0.1, 1]) and examples gen_data.py ([2000, 1] in [0, 1]) plus signed values."""
import numpy as np
PATH = "src/math/tanh"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_100", "shapes": {"x": [100]}, "attrs": {}, "ranges": {"x": [0.1, 1.0]}},
    {"name": "gen_2000x1", "shapes": {"x": [2000, 1]}, "attrs": {}, "ranges": {"x": [0.0, 1.0]}},
    {"name": "signed", "shapes": {"x": [64, 1024]}, "attrs": {}, "ranges": {"x": [-5.0, 5.0]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(x):
    return np.tanh(x.astype(np.float32))


OUT_OF_SCOPE = None
