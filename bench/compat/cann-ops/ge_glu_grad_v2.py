"""GeGluGradV2 (cann-ops src/activation/ge_glu_grad_v2): the gradient of GeGluV2 (y = other * GELU(act), act the right half of x along dim unless activate_left). With dy of y's shape and gelu = the forward GELU(act) as an input: d other = dy * gelu, d act = dy * other * GELU'(act) (approximate 1: tanh form, 0: erf form); dx joins them in x's layout. No InferShape: output_shapes = x's shape. Cases from examples gen_data.py (x [2, 2], dy [2, 1], tanh) plus wider rows and the erf form."""
import math
import numpy as np
from _shared import BF16_TOLERANCE, ERF, glu_halves
PATH = "src/activation/ge_glu_grad_v2"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_2x2", "shapes": {"dy": [2, 1], "x": [2, 2], "gelu": [2, 1]}, "attrs": {"dim": -1, "approximate": 1, "activate_left": False},
     "ranges": {"x": [-3.0, 3.0]}, "output_shapes": {"dx": [2, 2]}},
    {"name": "rows_32x2048", "shapes": {"dy": [32, 1024], "x": [32, 2048], "gelu": [32, 1024]}, "attrs": {"dim": -1, "approximate": 1, "activate_left": False},
     "ranges": {"x": [-3.0, 3.0]}, "output_shapes": {"dx": [32, 2048]}},
    {"name": "erf_left_9x130", "shapes": {"dy": [9, 65], "x": [9, 130], "gelu": [9, 65]}, "attrs": {"dim": -1, "approximate": 0, "activate_left": True},
     "ranges": {"x": [-3.0, 3.0]}, "output_shapes": {"dx": [9, 130]}},
]
TOLERANCE = BF16_TOLERANCE


def _gelu_grad(a, approximate):
    if approximate == 1:
        k = math.sqrt(2.0 / math.pi)
        t = np.tanh(k * (a + 0.044715 * a ** 3))
        return 0.5 * (1.0 + t) + 0.5 * a * (1.0 - t * t) * k * (1.0 + 3 * 0.044715 * a * a)
    cdf = 0.5 * (1.0 + ERF(a / math.sqrt(2.0)).astype(np.float64))
    return cdf + a * np.exp(-0.5 * a * a) / math.sqrt(2.0 * math.pi)


def golden(dy, x, gelu, *, dim=-1, approximate=1, activate_left=False):
    d, g = dy.astype(np.float64), gelu.astype(np.float64)
    act, other = glu_halves(x, dim, activate_left)
    d_act, d_other = d * other * _gelu_grad(act, approximate), d * g
    return np.concatenate((d_act, d_other) if activate_left else (d_other, d_act), axis=dim)


OUT_OF_SCOPE = None
