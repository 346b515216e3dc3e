"""GeGluV3 (cann-ops src/activation/ge_glu_v3): split x in halves along dim; the activated half is the right one (activate_left false) or the left; gelu = GELU(activated) (approximate 1: tanh form, 0: erf form); y = other * gelu. Outputs y and gelu. Cases from examples gen_data.py ([2, 2], tanh) plus wider rows, the erf form and activate_left."""
import math
import numpy as np
PATH = "src/activation/ge_glu_v3"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_2x2", "shapes": {"x": [2, 2]}, "attrs": {"dim": -1, "approximate": 1, "activate_left": False}, "ranges": {"x": [-3.0, 3.0]}},
    {"name": "rows_64x2048_tanh", "shapes": {"x": [64, 2048]}, "attrs": {"dim": -1, "approximate": 1, "activate_left": False}, "ranges": {"x": [-3.0, 3.0]}},
    {"name": "erf_left_9x130", "shapes": {"x": [9, 130]}, "attrs": {"dim": -1, "approximate": 0, "activate_left": True}, "ranges": {"x": [-3.0, 3.0]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}
_ERF = np.frompyfunc(math.erf, 1, 1)


def _gelu(a, approximate):
    if approximate == 1:
        return 0.5 * a * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (a + 0.044715 * a ** 3)))
    return 0.5 * a * (1.0 + _ERF(a / math.sqrt(2.0)).astype(np.float64))


def golden(x, *, dim=-1, approximate=1, activate_left=False):
    left, right = np.split(x.astype(np.float64), 2, axis=dim)
    act, other = (left, right) if activate_left else (right, left)
    g = _gelu(act, approximate)
    return other * g, g


OUT_OF_SCOPE = None
