"""DiagV2 (cann-ops src/math/diag_v2): y = the diagonal of the 2-D x at offset `diagonal` (torch.diag of a matrix; > 0 above the main diagonal). Cases from examples gen_data.py ([10, 10], diagonal 1, values in [-100, 100]) plus main, negative and non-square."""
import numpy as np
PATH = "src/math/diag_v2"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_10x10_d1", "shapes": {"x": [10, 10]}, "attrs": {"diagonal": 1}, "ranges": {"x": [-100.0, 100.0]}},
    {"name": "main_64x64", "shapes": {"x": [64, 64]}, "attrs": {"diagonal": 0}, "ranges": {"x": [-100.0, 100.0]}},
    {"name": "below_37x50", "shapes": {"x": [37, 50]}, "attrs": {"diagonal": -3}, "ranges": {"x": [-100.0, 100.0]}},
]


def golden(x, *, diagonal=0):
    return np.diagonal(x, offset=diagonal).copy()


OUT_OF_SCOPE = None
