"""MseLossGradV1 (cann-ops src/math/mse_loss_grad_v1): y = 2 (predict - label) * dout, divided by the element count for reduction "mean". Cases from tests/st/MseLossGradV1_case_alltype.json ([100, 100] in [0.1, 1], mean) and examples gen_data.py ([-1, 1]) plus sum on a ragged shape."""
import numpy as np
PATH = "src/math/mse_loss_grad_v1"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_mean", "shapes": {"predict": [100, 100], "label": [100, 100], "dout": [100, 100]}, "attrs": {"reduction": "mean"},
     "ranges": {"predict": [0.1, 1.0], "label": [0.1, 1.0], "dout": [0.1, 1.0]}},
    {"name": "gen_mean", "shapes": {"predict": [100, 100], "label": [100, 100], "dout": [100, 100]}, "attrs": {"reduction": "mean"}, "ranges": {}},
    {"name": "sum_ragged", "shapes": {"predict": [7, 333], "label": [7, 333], "dout": [7, 333]}, "attrs": {"reduction": "sum"}, "ranges": {}},
]


def golden(predict, label, dout, *, reduction="mean"):
    cof = 2.0 / predict.size if reduction == "mean" else 2.0
    return (predict.astype(np.float64) - label.astype(np.float64)) * cof * dout.astype(np.float64)


OUT_OF_SCOPE = None
