"""Swish (cann-ops src/math/swish): y = x * sigmoid(scale * x). Cases from tests/st/Swish_case_alltype.json ([100] in [0.1, 1], scale 1.0 — the 2026-12-01 GM tail over-read) and examples gen_data.py ([100, 100] in [1, 4], scale 1.2) plus negatives."""
import numpy as np
PATH = "src/math/swish"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_100", "shapes": {"x": [100]}, "attrs": {"scale": 1.0}, "ranges": {"x": [0.1, 1.0]}},
    {"name": "gen_100x100", "shapes": {"x": [100, 100]}, "attrs": {"scale": 1.2}, "ranges": {"x": [1.0, 4.0]}},
    {"name": "signed_ragged", "shapes": {"x": [7, 301]}, "attrs": {"scale": 1.0}, "ranges": {"x": [-6.0, 6.0]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(x, *, scale=1.0):
    v = x.astype(np.float32)
    return v / (1.0 + np.exp(-np.float32(scale) * v))


OUT_OF_SCOPE = None
