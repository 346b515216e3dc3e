"""CrossEntropyLossGrad (cann-ops src/loss/cross_entropy_loss_grad): the gradient of CrossEntropyLoss w.r.t. its input from grad_loss and the forward log_prob: per row g_n = grad_loss scaled by (1 - ls) (divided by the kept weight sum for "mean"), times w[target[n]] and the ignore mask; x_grad = exp(log_prob) * g_n, minus g_n at the target column (the smoothing part as in the op's gen_data.py). Cases after examples gen_data.py (mean, [4096, 1024], no smoothing; here [256, 1024]; log_prob drawn in [-10, 0]) plus sum and none."""
import numpy as np
PATH = "src/loss/cross_entropy_loss_grad"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_mean_256x1024", "shapes": {"grad_loss": [1], "log_prob": [256, 1024], "target": [256], "weight": [1024]},
     "attrs": {"reduction": "mean"}, "ranges": {"grad_loss": [0.5, 1.5], "log_prob": [-10.0, 0.0], "target": [0, 1023], "weight": [0.95, 1.05]}},
    {"name": "sum_64x100", "shapes": {"grad_loss": [1], "log_prob": [64, 100], "target": [64], "weight": [100]},
     "attrs": {"reduction": "sum"}, "ranges": {"grad_loss": [0.5, 1.5], "log_prob": [-6.0, 0.0], "target": [0, 99], "weight": [0.5, 2.0]}},
    {"name": "none_33x77", "shapes": {"grad_loss": [33], "log_prob": [33, 77], "target": [33], "weight": [77]},
     "attrs": {"reduction": "none"}, "ranges": {"log_prob": [-6.0, 0.0], "target": [0, 76], "weight": [0.95, 1.05]}},
]
# Rows shorter than 128 floats (sum_64x100, none_33x77) get a 0-byte fp32Buf4 (the tiling rounds
# the columns per loop down to a multiple of 128: op_host tiling lines 89-94), and the kernel's
# casts of a row run on into the UB after it (op_kernel _weight_not_none.h lines 68, 113-125),
# which the device does unchecked; with reduction sum or none nothing follows fp32Buf4, so the
# result is right. With mean and such short rows they would land on blockBuf2/weightMask
# (lines 72-76): not among these cases.
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(grad_loss, log_prob, target, weight, grad_zloss, lse_for_zloss, *, reduction="mean",
           ignore_index=-100, label_smoothing=0.0, lse_square_scale_for_zloss=0.0):
    lp = log_prob.astype(np.float64)
    n, c = lp.shape
    g = grad_loss.astype(np.float64).reshape(-1)
    w = np.ones(c) if weight is None else weight.astype(np.float64)
    t = target.astype(np.int64)
    keep = (t != ignore_index).astype(np.float64) if ignore_index >= 0 else np.ones(n)
    safe_t = np.where(t == ignore_index, 0, t)
    w_t = w[safe_t]
    if reduction == "mean":
        row = np.full(n, g[0] * (1 - label_smoothing) / (w_t * keep).sum())
    elif reduction == "sum":
        row = np.full(n, g[0] * (1 - label_smoothing))
    else:
        row = g * (1 - label_smoothing)
    nll_grad = row * keep * w_t
    out = np.exp(lp) * nll_grad[:, None]
    out[np.arange(n), safe_t] -= nll_grad
    return out


OUT_OF_SCOPE = None
