"""FastGelu (cann-ops src/math/fast_gelu): y = x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|)), i.e. x * sigmoid(1.702 x). Cases from tests/st/FastGelu_case_alltype.json ([1024] in [0.1, 1]) and examples gen_data.py ([1024] in [-10, 10]) plus [256, 1024]. The fp16 kernel computes step by step in fp16, so fp16 gets a looser tolerance (measured 2026-12-01: 6.7 % of [256, 1024] outside 1e-3, bit-exact against an fp16 replay)."""
import numpy as np
PATH = "src/math/fast_gelu"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_1024", "shapes": {"x": [1024]}, "attrs": {}, "ranges": {"x": [0.1, 1.0]}},
    {"name": "gen_1024", "shapes": {"x": [1024]}, "attrs": {}, "ranges": {"x": [-10.0, 10.0]}},
    {"name": "rows", "shapes": {"x": [256, 1024]}, "attrs": {}, "ranges": {"x": [-10.0, 10.0]}},
    {"name": "ragged", "shapes": {"x": [5, 77]}, "attrs": {}, "ranges": {"x": [-10.0, 10.0]}},
]
TOLERANCE = {"float16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 1e-3}}


def golden(x):
    v = x.astype(np.float32)
    return v / (1.0 + np.exp(-1.702 * np.abs(v))) * np.exp(0.851 * (v - np.abs(v)))


OUT_OF_SCOPE = None
