"""DiagFlat (cann-ops src/conversion/diag_flat): y = a square matrix with x flattened on diagonal `diagonal` (> 0 above the main one) and zeros elsewhere (np.diagflat); side = x.size + |diagonal|. No InferShape: cases state output_shapes. Cases from examples gen_data.py (x [1, 2], diagonal 1 -> [3, 3]) plus main and negative diagonals."""
import numpy as np
PATH = "src/conversion/diag_flat"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_1x2_d1", "shapes": {"x": [1, 2]}, "attrs": {"diagonal": 1}, "ranges": {}, "output_shapes": {"y": [3, 3]}},
    {"name": "main_100", "shapes": {"x": [100]}, "attrs": {"diagonal": 0}, "ranges": {"x": [-10, 10]}, "output_shapes": {"y": [100, 100]}},
    {"name": "below_3x5_dm4", "shapes": {"x": [3, 5]}, "attrs": {"diagonal": -4}, "ranges": {"x": [-10, 10]}, "output_shapes": {"y": [19, 19]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(x, *, diagonal=0):
    return np.diagflat(x.reshape(-1), k=diagonal)


OUT_OF_SCOPE = None
