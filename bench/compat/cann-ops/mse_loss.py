"""MseLoss (cann-ops src/math/mse_loss): y = mean (reduction "mean"), sum ("sum") or element-wise ("none") of (predict - label)**2. Its InferShape gives predict's shape whatever the reduction, so mean/sum cases state output_shapes [1] (what the st case expects). Cases from tests/st/MseLoss_case_alltype.json ([100, 100] in [0.1, 1], mean) and examples gen_data.py ([-1, 1]) plus sum and none."""
import numpy as np
PATH = "src/math/mse_loss"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_mean", "shapes": {"predict": [100, 100], "label": [100, 100]}, "attrs": {"reduction": "mean"},
     "ranges": {"predict": [0.1, 1.0], "label": [0.1, 1.0]}, "output_shapes": {"y": [1]}},
    {"name": "gen_mean", "shapes": {"predict": [100, 100], "label": [100, 100]}, "attrs": {"reduction": "mean"},
     "ranges": {}, "output_shapes": {"y": [1]}},
    {"name": "sum_ragged", "shapes": {"predict": [7, 333], "label": [7, 333]}, "attrs": {"reduction": "sum"},
     "ranges": {}, "output_shapes": {"y": [1]}},
    {"name": "none", "shapes": {"predict": [64, 100], "label": [64, 100]}, "attrs": {"reduction": "none"}, "ranges": {}},
]


def golden(predict, label, *, reduction="mean"):
    d = (predict.astype(np.float64) - label.astype(np.float64)) ** 2
    if reduction == "mean":
        return np.array([d.mean()])
    if reduction == "sum":
        return np.array([d.sum()])
    return d


OUT_OF_SCOPE = None
