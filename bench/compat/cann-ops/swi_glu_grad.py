"""SwiGluGrad (cann-ops src/activation/swi_glu_grad): the gradient of y = silu(a) * b (a, b the halves of x along dim): x_grad = [y_grad * b * silu'(a), y_grad * silu(a)] with silu'(a) = s + a s (1 - s), s = sigmoid(a). Cases from examples gen_data.py (x [2, 32], y_grad [2, 16]) plus wider rows and a ragged width."""
import numpy as np
PATH = "src/activation/swi_glu_grad"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_2x32", "shapes": {"y_grad": [2, 16], "x": [2, 32]}, "attrs": {"dim": -1}, "ranges": {"x": [-3.0, 3.0]}},
    {"name": "rows_64x4096", "shapes": {"y_grad": [64, 2048], "x": [64, 4096]}, "attrs": {"dim": -1}, "ranges": {"x": [-3.0, 3.0]}},
    {"name": "ragged_7x202", "shapes": {"y_grad": [7, 101], "x": [7, 202]}, "attrs": {"dim": -1}, "ranges": {"x": [-3.0, 3.0]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(y_grad, x, *, dim=-1):
    g = y_grad.astype(np.float64)
    a, b = np.split(x.astype(np.float64), 2, axis=dim)
    s = 1.0 / (1.0 + np.exp(-a))
    return np.concatenate((g * b * (s + a * s * (1.0 - s)), g * a * s), axis=dim)


OUT_OF_SCOPE = None
