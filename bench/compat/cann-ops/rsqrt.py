"""Rsqrt (cann-ops src/math/rsqrt): y = 1 / sqrt(x). Cases from tests/st/Rsqrt_case_alltype.json ([100] in [0.1, 1]) and examples gen_data.py ([100, 100] in [1, 4]) plus a ragged shape."""
import numpy as np
PATH = "src/math/rsqrt"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_100", "shapes": {"x": [100]}, "attrs": {}, "ranges": {"x": [0.1, 1.0]}},
    {"name": "gen", "shapes": {"x": [256, 1024]}, "attrs": {}, "ranges": {"x": [1.0, 4.0]}},
    {"name": "ragged", "shapes": {"x": [3, 1001]}, "attrs": {}, "ranges": {"x": [1.0, 4.0]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(x):
    v = x.astype(np.float32)
    return 1.0 / np.sqrt(v)


OUT_OF_SCOPE = None
