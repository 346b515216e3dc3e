"""Xlogy (cann-ops src/math/xlogy): y = x1 * log(x2), and 0 where x1 == 0 (tf.math.xlogy). Cases from tests/st/Xlogy_case_alltype.json and examples gen_data.py ([128, 32], x1 in [-10, 10], x2 in [0, 10]) plus the ragged 3000-element fp16 case of 2026-12-01."""
import numpy as np
PATH = "src/math/xlogy"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_128x32", "shapes": {"x1": [128, 32], "x2": [128, 32]}, "attrs": {}, "ranges": {"x1": [-10.0, 10.0], "x2": [0.0, 10.0]}},
    {"name": "ragged_3x1000", "shapes": {"x1": [3, 1000], "x2": [3, 1000]}, "attrs": {}, "ranges": {"x1": [-10.0, 10.0], "x2": [0.01, 10.0]}},
]


def golden(x1, x2):
    a, b = x1.astype(np.float64), x2.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(a == 0, 0.0, a * np.log(b))


OUT_OF_SCOPE = None
