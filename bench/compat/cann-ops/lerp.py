"""Lerp (cann-ops src/math/lerp): y = start + weight * (end - start), weight a tensor of the same shape. Cases from tests/st/Lerp_case_alltype.json ([32] in [0.1, 1]) and examples gen_data.py (start, end in [-10, 10], weight in [0, 1]) plus a ragged shape (3000 fp16 elements: the 2026-12-01 tail over-read)."""
import numpy as np
PATH = "src/math/lerp"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_32", "shapes": {"start": [32], "end": [32], "weight": [32]}, "attrs": {}, "ranges": {"start": [0.1, 1.0], "end": [0.1, 1.0], "weight": [0.1, 1.0]}},
    {"name": "gen_32", "shapes": {"start": [32], "end": [32], "weight": [32]}, "attrs": {}, "ranges": {"start": [-10.0, 10.0], "end": [-10.0, 10.0], "weight": [0.0, 1.0]}},
    {"name": "ragged_3000", "shapes": {"start": [3, 1000], "end": [3, 1000], "weight": [3, 1000]}, "attrs": {}, "ranges": {"start": [-10.0, 10.0], "end": [-10.0, 10.0], "weight": [0.0, 1.0]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(start, end, weight):
    s, e, w = (a.astype(np.float32) for a in (start, end, weight))
    return s + w * (e - s)


OUT_OF_SCOPE = None
