"""Cross (cann-ops src/math/cross): y = x1 x x2, the 3-vector cross product along axis dim (default -65530: the first axis of size 3). Cases from tests/st/Cross_case_alltype.json ([4, 3], dim 1) and examples gen_data.py (int8 values in [-10, 10])."""
import numpy as np
PATH = "src/math/cross"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_4x3", "shapes": {"x1": [4, 3], "x2": [4, 3]}, "attrs": {"dim": 1}, "ranges": {"x1": [0.1, 1.0], "x2": [0.1, 1.0]}},
    {"name": "gen_4x3", "shapes": {"x1": [4, 3], "x2": [4, 3]}, "attrs": {}, "ranges": {"x1": [-10.0, 10.0], "x2": [-10.0, 10.0]}},
    {"name": "axis0", "shapes": {"x1": [3, 64, 17], "x2": [3, 64, 17]}, "attrs": {"dim": 0}, "ranges": {"x1": [-10.0, 10.0], "x2": [-10.0, 10.0]}},
]


def golden(x1, x2, *, dim=-65530):
    if dim == -65530:
        dim = next(i for i, s in enumerate(x1.shape) if s == 3)
    if np.issubdtype(x1.dtype, np.integer):   # int8 wraps as the hardware's multiply does
        return np.cross(x1.astype(np.int64), x2.astype(np.int64), axis=dim).astype(x1.dtype)
    return np.cross(x1.astype(np.float32), x2.astype(np.float32), axis=dim)


OUT_OF_SCOPE = None
