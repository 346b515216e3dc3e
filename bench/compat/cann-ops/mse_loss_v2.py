"""MSELossV2 (cann-ops src/loss/mse_loss_v2): output = mean ("mean"), sum ("sum") or element-wise ("none") of (input - target)**2. The InferShape gives a 0-d output for mean and sum. Cases from examples gen_data.py ([2, 2] in [-100, 100], mean) plus sum, none and a ragged shape."""
import numpy as np
PATH = "src/loss/mse_loss_v2"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_2x2_mean", "shapes": {"input": [2, 2], "target": [2, 2]}, "attrs": {"reduction": "mean"},
     "ranges": {"input": [-100.0, 100.0], "target": [-100.0, 100.0]}},
    {"name": "mean_64x1024", "shapes": {"input": [64, 1024], "target": [64, 1024]}, "attrs": {"reduction": "mean"}, "ranges": {}},
    {"name": "sum_ragged", "shapes": {"input": [7, 333], "target": [7, 333]}, "attrs": {"reduction": "sum"}, "ranges": {}},
    {"name": "none_32x100", "shapes": {"input": [32, 100], "target": [32, 100]}, "attrs": {"reduction": "none"}, "ranges": {}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(input, target, *, reduction="mean"):
    d = (input.astype(np.float64) - target.astype(np.float64)) ** 2
    if reduction == "mean":
        return np.array(d.mean())
    if reduction == "sum":
        return np.array(d.sum())
    return d


OUT_OF_SCOPE = None
