"""GeGluV3 (cann-ops src/activation/ge_glu_v3): split x in halves along dim; the activated half is the right one (activate_left false) or the left; gelu = GELU(activated) (approximate 1: tanh form, 0: erf form); y = other * gelu. Outputs y and gelu. Cases from examples gen_data.py ([2, 2], tanh) plus wider rows, the erf form and activate_left."""
import numpy as np
from _shared import BF16_TOLERANCE, ge_glu
PATH = "src/activation/ge_glu_v3"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_2x2", "shapes": {"x": [2, 2]}, "attrs": {"dim": -1, "approximate": 1, "activate_left": False}, "ranges": {"x": [-3.0, 3.0]}},
    {"name": "rows_64x2048_tanh", "shapes": {"x": [64, 2048]}, "attrs": {"dim": -1, "approximate": 1, "activate_left": False}, "ranges": {"x": [-3.0, 3.0]}},
    {"name": "erf_left_9x130", "shapes": {"x": [9, 130]}, "attrs": {"dim": -1, "approximate": 0, "activate_left": True}, "ranges": {"x": [-3.0, 3.0]}},
]
TOLERANCE = BF16_TOLERANCE


def golden(x, *, dim=-1, approximate=1, activate_left=False):
    return ge_glu(x, dim, approximate, activate_left)


OUT_OF_SCOPE = None
