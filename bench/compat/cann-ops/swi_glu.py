"""SwiGlu (cann-ops src/activation/swi_glu): split x in halves a, b along dim; y = silu(a) * b = a / (1 + exp(-a)) * b. Cases from examples gen_data.py ([2, 32], normal values) plus wider rows and a ragged width."""
import numpy as np
PATH = "src/activation/swi_glu"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_2x32", "shapes": {"x": [2, 32]}, "attrs": {"dim": -1}, "ranges": {"x": [-3.0, 3.0]}},
    {"name": "rows_64x4096", "shapes": {"x": [64, 4096]}, "attrs": {"dim": -1}, "ranges": {"x": [-3.0, 3.0]}},
    {"name": "ragged_7x202", "shapes": {"x": [7, 202]}, "attrs": {"dim": -1}, "ranges": {"x": [-3.0, 3.0]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(x, *, dim=-1):
    a, b = np.split(x.astype(np.float64), 2, axis=dim)
    return a / (1.0 + np.exp(-a)) * b


OUT_OF_SCOPE = None
