"""LogicalOr (cann-ops src/math/logical_or): y = x1 or x2 on bool tensors. Cases from tests/st/LogicalOr_case.json ([9, 17]) and examples gen_data.py ([2, 20]) plus a larger one."""
import numpy as np
PATH = "src/math/logical_or"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_9x17", "shapes": {"x1": [9, 17], "x2": [9, 17]}, "attrs": {}, "ranges": {}},
    {"name": "gen_2x20", "shapes": {"x1": [2, 20], "x2": [2, 20]}, "attrs": {}, "ranges": {}},
    {"name": "rows", "shapes": {"x1": [64, 1024], "x2": [64, 1024]}, "attrs": {}, "ranges": {}},
]


def golden(x1, x2):
    return np.logical_or(x1, x2)


OUT_OF_SCOPE = None
