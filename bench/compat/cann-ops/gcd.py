"""Gcd (cann-ops src/math/gcd): y = gcd(|x1|, |x2|) element-wise (gcd(0, 0) = 0). Cases after examples gen_data.py (int32 in [-1e7, 1e7), [1024, 1024]; here [256, 1024]) plus a ragged one with small values (many common factors)."""
import numpy as np
PATH = "src/math/gcd"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_256x1024", "shapes": {"x1": [256, 1024], "x2": [256, 1024]}, "attrs": {},
     "ranges": {"x1": [-10000000, 10000000], "x2": [-10000000, 10000000]}},
    {"name": "small_ragged", "shapes": {"x1": [3, 333], "x2": [3, 333]}, "attrs": {}, "ranges": {"x1": [-60, 60], "x2": [-60, 60]}},
]


def golden(x1, x2):
    return np.gcd(x1, x2)


OUT_OF_SCOPE = None
