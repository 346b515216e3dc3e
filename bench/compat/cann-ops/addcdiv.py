"""Addcdiv (cann-ops src/math/addcdiv): y = input_data + value * x1 / x2, value a one-element tensor (or one value per element). Cases from tests/st/Addcdiv_case_alltype.json ([100], all four inputs [100]) and examples gen_data.py ([100, 100] in [1, 4], value [1] = 1.2)."""
import numpy as np
PATH = "src/math/addcdiv"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_100", "shapes": {"input_data": [100], "x1": [100], "x2": [100], "value": [100]}, "attrs": {},
     "ranges": {"input_data": [0.1, 1.0], "x1": [0.1, 1.0], "x2": [0.1, 1.0], "value": [0.1, 1.0]}},
    {"name": "gen_100x100", "shapes": {"input_data": [100, 100], "x1": [100, 100], "x2": [100, 100], "value": [1]}, "attrs": {},
     "ranges": {"input_data": [1.0, 4.0], "x1": [1.0, 4.0], "x2": [1.0, 4.0], "value": [1.14, 1.26]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(input_data, x1, x2, value):
    f = np.float32
    return input_data.astype(f) + value.astype(f) * (x1.astype(f) / x2.astype(f))


OUT_OF_SCOPE = None
