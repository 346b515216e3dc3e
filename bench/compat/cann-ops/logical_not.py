"""LogicalNot (cann-ops src/math/logical_not): y = not x on bool tensors. Cases from tests/st/LogicalNot_case_alltype.json ([100]) and examples gen_data.py ([1, 1024]) plus a ragged one."""
import numpy as np
PATH = "src/math/logical_not"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_100", "shapes": {"x": [100]}, "attrs": {}, "ranges": {}},
    {"name": "gen_1x1024", "shapes": {"x": [1, 1024]}, "attrs": {}, "ranges": {}},
    {"name": "ragged", "shapes": {"x": [7, 13]}, "attrs": {}, "ranges": {}},
]


def golden(x):
    return np.logical_not(x)


OUT_OF_SCOPE = None
