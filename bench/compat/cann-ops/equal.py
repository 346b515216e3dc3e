"""Equal (cann-ops src/math/equal): y = (x1 == x2) as bool. Cases from tests/st/Equal_case_fp_type.json and Equal_case_int_type.json ([99]) and examples gen_data.py ([100, 100], integral values in [-10, 10] so that equal pairs occur; random floats rarely tie: the narrow same_range case ties in fp16 and the integer dtypes)."""
import numpy as np
PATH = "src/math/equal"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_99", "shapes": {"x1": [99], "x2": [99]}, "attrs": {}, "ranges": {"x1": [1.0, 10.0], "x2": [1.0, 10.0]}},
    {"name": "gen_100x100", "shapes": {"x1": [100, 100], "x2": [100, 100]}, "attrs": {}, "ranges": {"x1": [0.0, 3.0], "x2": [0.0, 3.0]}},
    {"name": "same_range", "shapes": {"x1": [1, 2049], "x2": [1, 2049]}, "attrs": {}, "ranges": {"x1": [-0.01, 0.01], "x2": [-0.01, 0.01]}},
]


def golden(x1, x2):
    return x1 == x2


OUT_OF_SCOPE = None
