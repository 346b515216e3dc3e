"""Gelu (cann-ops src/math/gelu): y = x / (1 + exp(-1.5957691 (x + 0.044715 x**3))), the tanh form of GELU (x * sigmoid(2 sqrt(2/pi) (x + 0.044715 x**3))), which the kernel computes. Cases from tests/st/Gelu_case_alltype.json ([100] in [0.1, 1]) and examples gen_data.py ([100] in [-1, 1]) plus wider ones."""
import numpy as np
PATH = "src/math/gelu"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_100", "shapes": {"x": [100]}, "attrs": {}, "ranges": {"x": [0.1, 1.0]}},
    {"name": "gen_100", "shapes": {"x": [100]}, "attrs": {}, "ranges": {"x": [-1.0, 1.0]}},
    {"name": "rows", "shapes": {"x": [48, 2048]}, "attrs": {}, "ranges": {"x": [-6.0, 6.0]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(x):
    v = x.astype(np.float32)
    return v / (1.0 + np.exp(-1.5957691216057308 * (v + 0.044715 * v * v * v)))


OUT_OF_SCOPE = None
