"""Pows (cann-ops src/math/pows): y = x1 ** x2, x2 a one-element exponent tensor. Cases from examples gen_data.py (x1 [2, 2] integral in [1, 5), exponent 4.1) plus larger shapes, exponent 2 (a square) and 0.5."""
import numpy as np
PATH = "src/math/pows"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_2x2", "shapes": {"x1": [2, 2], "x2": [1]}, "attrs": {}, "ranges": {"x1": [1.0, 4.0], "x2": [3.895, 4.305]}},
    {"name": "square_64x1024", "shapes": {"x1": [64, 1024], "x2": [1]}, "attrs": {}, "ranges": {"x1": [-3.0, 3.0], "x2": [1.9, 2.1]}},
    {"name": "sqrt_ragged", "shapes": {"x1": [3, 777], "x2": [1]}, "attrs": {}, "ranges": {"x1": [0.0, 9.0], "x2": [0.475, 0.525]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(x1, x2):
    return np.power(x1.astype(np.float64), float(x2.reshape(-1)[0]))


OUT_OF_SCOPE = None
