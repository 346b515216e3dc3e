"""LessEqual (cann-ops src/math/less_equal): y = (x1 <= x2) as bool. Cases from tests/st/LessEqual_case_all_type.json ([1024] in [0.1, 100]) and examples gen_data.py ([1024, 1024] in [-10, 10]; here [64, 1000], the 2026-12-01 partly filled tile) plus ties."""
import numpy as np
PATH = "src/math/less_equal"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_1024", "shapes": {"x1": [1024], "x2": [1024]}, "attrs": {}, "ranges": {"x1": [0.1, 100.0], "x2": [0.1, 100.0]}},
    {"name": "gen_64x1000", "shapes": {"x1": [64, 1000], "x2": [64, 1000]}, "attrs": {}, "ranges": {"x1": [-10.0, 10.0], "x2": [-10.0, 10.0]}},
    {"name": "ties_ragged", "shapes": {"x1": [3, 101], "x2": [3, 101]}, "attrs": {}, "ranges": {"x1": [0.95, 1.05], "x2": [0.0, 2.0]}},
]


def golden(x1, x2):
    return x1 <= x2


OUT_OF_SCOPE = None
