"""MoeSoftMaxTopk (cann-ops src/math/moe_soft_max_topk): p = softmax(x) along the last axis; y = the k largest p of each row in descending order, indices = their positions. Cases from tests/st/MoeSoftMaxTopk_case_all_type.json and examples gen_data.py (case1 [1024, 16] k 4; case2 [2048, 32] k 6)."""
import numpy as np
PATH = "src/math/moe_soft_max_topk"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "case1_1024x16_k4", "shapes": {"x": [1024, 16]}, "attrs": {"k": 4}, "ranges": {"x": [-3.0, 3.0]}},
    {"name": "case2_2048x32_k6", "shapes": {"x": [2048, 32]}, "attrs": {"k": 6}, "ranges": {"x": [-3.0, 3.0]}},
    {"name": "st_1024x16", "shapes": {"x": [1024, 16]}, "attrs": {"k": 4}, "ranges": {"x": [0.1, 1.0]}},
]


def golden(x, *, k=4):
    v = x.astype(np.float64)
    e = np.exp(v - v.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    idx = np.argsort(-p, axis=-1, kind="stable")[..., :k]
    return np.take_along_axis(p, idx, axis=-1), idx.astype(np.int32)


OUT_OF_SCOPE = None
