"""Tril (cann-ops src/math/tril): y = x with the elements above diagonal number `diagonal` zeroed (torch.tril), over the last two axes. Cases from tests/st/Tril_case_alltype.json ([100, 100], diagonal 0) and examples gen_data.py ([10, 10] in [-10, 10]) plus offsets and a batch."""
import numpy as np
PATH = "src/math/tril"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_100x100", "shapes": {"x": [100, 100]}, "attrs": {"diagonal": 0}, "ranges": {"x": [0.1, 1.0]}},
    {"name": "gen_10x10", "shapes": {"x": [10, 10]}, "attrs": {"diagonal": 0}, "ranges": {"x": [-10.0, 10.0]}},
    {"name": "offset_plus2", "shapes": {"x": [37, 50]}, "attrs": {"diagonal": 2}, "ranges": {"x": [-10.0, 10.0]}},
    {"name": "batch_minus1", "shapes": {"x": [3, 16, 16]}, "attrs": {"diagonal": -1}, "ranges": {"x": [-10.0, 10.0]}},
]


def golden(x, *, diagonal=0):
    return np.tril(x, k=diagonal)


OUT_OF_SCOPE = None
