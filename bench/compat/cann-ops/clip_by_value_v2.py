"""ClipByValueV2 (cann-ops src/math/clip_by_value_v2): y = min(max(x, clip_value_min), clip_value_max), the bounds one-element tensors. Cases from tests/st/ClipByValueV2_case_all_type.json ([7, 2045]) and examples gen_data.py ([1, 23], x in [1, 10], min in [1, 3], max in [4, 10])."""
import numpy as np
PATH = "src/math/clip_by_value_v2"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_7x2045", "shapes": {"x": [7, 2045], "clip_value_min": [1], "clip_value_max": [1]}, "attrs": {},
     "ranges": {"x": [0.1, 10.0], "clip_value_min": [0.1, 5.0], "clip_value_max": [5.1, 10.0]}},
    {"name": "gen_small", "shapes": {"x": [1, 23], "clip_value_min": [1], "clip_value_max": [1]}, "attrs": {},
     "ranges": {"x": [1.0, 10.0], "clip_value_min": [1.0, 3.0], "clip_value_max": [4.0, 10.0]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(x, clip_value_min, clip_value_max):
    lo, hi = clip_value_min.reshape(-1)[0], clip_value_max.reshape(-1)[0]
    if np.issubdtype(x.dtype, np.integer):
        return np.minimum(np.maximum(x, lo), hi)
    f = np.float32
    return np.minimum(np.maximum(x.astype(f), f(lo)), f(hi))


OUT_OF_SCOPE = None
