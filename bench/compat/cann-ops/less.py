"""Less (cann-ops src/math/less): y = (x1 < x2) as bool. Cases from tests/st/Less_case_fp_type.json ([8, 2048] in [0.1, 1]) and Less_case_int_type.json ([3, 8, 2048] in [1, 100]) and examples gen_data.py ([100, 100] in [1, 10])."""
import numpy as np
PATH = "src/math/less"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_fp_8x2048", "shapes": {"x1": [8, 2048], "x2": [8, 2048]}, "attrs": {}, "ranges": {"x1": [0.1, 1.0], "x2": [0.1, 1.0]}},
    {"name": "st_int_3x8x2048", "shapes": {"x1": [3, 8, 2048], "x2": [3, 8, 2048]}, "attrs": {}, "ranges": {"x1": [1.0, 100.0], "x2": [1.0, 100.0]}},
    {"name": "gen_100x100", "shapes": {"x1": [100, 100], "x2": [100, 100]}, "attrs": {}, "ranges": {"x1": [1.0, 10.0], "x2": [1.0, 10.0]}},
]


def golden(x1, x2):
    return x1 < x2


OUT_OF_SCOPE = None
