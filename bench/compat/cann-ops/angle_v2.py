"""AngleV2 (cann-ops src/math/angle_v2): y = the argument of x: atan2(imag, real) for complex64; for real inputs pi where x < 0, else 0 (NaN stays NaN); integer and bool inputs give fp32. Cases from tests/st/angle_v2_case_alltype.json ([100] in [-1, 1]) and examples gen_data.py ([8, 24])."""
import numpy as np
PATH = "src/math/angle_v2"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_100", "shapes": {"x": [100]}, "attrs": {}, "ranges": {"x": [-1.0, 1.0]}},
    {"name": "gen_8x24", "shapes": {"x": [8, 24]}, "attrs": {}, "ranges": {"x": [-1.0, 1.0]}},
    {"name": "rows", "shapes": {"x": [33, 1025]}, "attrs": {}, "ranges": {"x": [-5.0, 5.0]}},
]


def golden(x):
    if np.iscomplexobj(x):
        return np.arctan2(x.imag, x.real).astype(np.float32)
    v = x.astype(np.float32)
    return np.where(np.isnan(v), v, np.where(v < 0, np.float32(np.pi), np.float32(0.0)))


OUT_OF_SCOPE = None
