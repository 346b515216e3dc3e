"""AddCustom (cann-ops src/math/add_custom): z = x + y. Cases from tests/st/AddCustom_case_all_type.json and examples gen_data.py ([8, 2048]) plus a ragged shape."""
import numpy as np
PATH = "src/math/add_custom"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_8x2048", "shapes": {"x": [8, 2048], "y": [8, 2048]}, "attrs": {}, "ranges": {"x": [0.1, 1.0], "y": [0.1, 1.0]}},
    {"name": "gen_signed", "shapes": {"x": [8, 2048], "y": [8, 2048]}, "attrs": {}, "ranges": {}},
    {"name": "ragged", "shapes": {"x": [3, 999], "y": [3, 999]}, "attrs": {}, "ranges": {}},
]


def golden(x, y):
    if np.issubdtype(x.dtype, np.integer):   # int8/int32 wrap as the hardware's add does
        return (x.astype(np.int64) + y).astype(x.dtype)
    return x.astype(np.float32) + y.astype(np.float32)


OUT_OF_SCOPE = None
