"""Sin (cann-ops src/math/sin): y = sin(x). Cases from tests/st/Sin_case_alltype.json ([100] in [-5, 5]) and examples gen_data.py ([1024, 1024] in [1, 4]; here [256, 1024]) plus a ragged shape."""
import numpy as np
PATH = "src/math/sin"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_100", "shapes": {"x": [100]}, "attrs": {}, "ranges": {"x": [-5.0, 5.0]}},
    {"name": "gen", "shapes": {"x": [256, 1024]}, "attrs": {}, "ranges": {"x": [1.0, 4.0]}},
    {"name": "ragged", "shapes": {"x": [3, 1001]}, "attrs": {}, "ranges": {"x": [1.0, 4.0]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(x):
    v = x.astype(np.float32)
    return np.sin(v)


OUT_OF_SCOPE = None
