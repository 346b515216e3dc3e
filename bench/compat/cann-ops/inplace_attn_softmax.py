"""InplaceAttnSoftmax (cann-ops src/math/inplace_attn_softmax): x = softmax(x) along the last axis, in place (the OpDef has no output: the expected values are x's after the run, INPLACE). Cases from examples gen_data.py ([8, 50000], normal-ish values; here uniform in [-3, 3]) plus rows that fit one tile and a ragged width."""
import numpy as np
PATH = "src/math/inplace_attn_softmax"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_8x50000", "shapes": {"x": [8, 50000]}, "attrs": {}, "ranges": {"x": [-3.0, 3.0]}},
    {"name": "rows_64x1024", "shapes": {"x": [64, 1024]}, "attrs": {}, "ranges": {"x": [-3.0, 3.0]}},
    {"name": "ragged_5x77", "shapes": {"x": [5, 77]}, "attrs": {}, "ranges": {"x": [-3.0, 3.0]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}
INPLACE = ["x"]


def golden(x):
    v = x.astype(np.float64)
    e = np.exp(v - v.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True),)


OUT_OF_SCOPE = None
