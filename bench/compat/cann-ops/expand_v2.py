"""ExpandV2 (cann-ops src/math/expand_v2): y = x broadcast to the attr shape (NumPy broadcasting rules). Cases from examples gen_data.py ([4] -> [4, 4]) plus a wider broadcast."""
import numpy as np
PATH = "src/math/expand_v2"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_4_to_4x4", "shapes": {"x": [4]}, "attrs": {"shape": [4, 4]}, "ranges": {"x": [0, 3]}},
    {"name": "rows_to_block", "shapes": {"x": [1, 37]}, "attrs": {"shape": [64, 37]}, "ranges": {"x": [-1000, 1000]}},
    {"name": "col_to_block", "shapes": {"x": [16, 1]}, "attrs": {"shape": [3, 16, 40]}, "ranges": {"x": [-1000, 1000]}},
]


def golden(x, *, shape):
    return np.broadcast_to(x, shape).copy()


OUT_OF_SCOPE = None
