"""FastGeluGrad (cann-ops src/math/fast_gelu_grad): z = dy * d/dx FastGelu(x) = dy * (e + 1.702 x e + exp(1.702 (x - |x|))) / (e + 1)**2 with e = exp(-1.702 |x|). Cases from tests/st/FastGeluGrad_case_alltype.json ([1024] in [0.1, 1]) and examples gen_data.py ([1024] in [-10, 10])."""
import numpy as np
PATH = "src/math/fast_gelu_grad"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_1024", "shapes": {"dy": [1024], "x": [1024]}, "attrs": {}, "ranges": {"dy": [0.1, 1.0], "x": [0.1, 1.0]}},
    {"name": "gen_1024", "shapes": {"dy": [1024], "x": [1024]}, "attrs": {}, "ranges": {"dy": [-10.0, 10.0], "x": [-10.0, 10.0]}},
    {"name": "ragged", "shapes": {"dy": [3, 555], "x": [3, 555]}, "attrs": {}, "ranges": {"dy": [-2.0, 2.0], "x": [-5.0, 5.0]}},
]
TOLERANCE = {"float16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 1e-3}}


def golden(dy, x):
    v = x.astype(np.float32)
    e = np.exp(-1.702 * np.abs(v))
    return dy.astype(np.float32) * (e + 1.702 * v * e + np.exp(1.702 * (v - np.abs(v)))) / (e + 1.0) ** 2


OUT_OF_SCOPE = None
