"""GeluGrad (cann-ops src/math/gelu_grad): z = dy * d/dx gelu_tanh(x); with p = exp(-x (1.5957691 + 0.0713548 x**2)) and t = 1 / (1 + p): z = dy * (t + p t**2 x (1.5957691 + 0.2140644 x**2)). The input y (the forward result) is not used by the formula. Cases from tests/st/GeluGrad_case_alltype.json ([100] in [0.1, 1]) and examples gen_data.py ([1024, 1024] in [-1, 1]; here [256, 1024])."""
import numpy as np
PATH = "src/math/gelu_grad"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_100", "shapes": {"dy": [100], "x": [100], "y": [100]}, "attrs": {}, "ranges": {"dy": [0.1, 1.0], "x": [0.1, 1.0], "y": [0.1, 1.0]}},
    {"name": "gen_256x1024", "shapes": {"dy": [256, 1024], "x": [256, 1024], "y": [256, 1024]}, "attrs": {}, "ranges": {}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(dy, x, y):
    v = x.astype(np.float64)
    p = np.exp(-v * (1.5957691216057308 + 0.0713548162726 * v * v))
    t = 1.0 / (1.0 + p)
    return dy.astype(np.float64) * (t + p * t * t * v * (1.5957691216057308 + 0.2140644488178007 * v * v))


OUT_OF_SCOPE = None
