"""CrossEntropyLoss (cann-ops src/loss/cross_entropy_loss): log_prob = log_softmax(input) over classes (N x C); per row l_n = -log_prob[n, target[n]] * w[target[n]] (w = weight or ones; rows with target == ignore_index count 0 when ignore_index >= 0) and the smoothing term s_n = -sum_c log_prob[n, c] w[c]; loss = (1 - ls) * L + ls / C * S with L, S summed ("sum"), divided by the kept weight sum ("mean"), or per row ("none", shape [N]; else [1]). zloss and lse_for_zloss exist only with return_zloss: None (not compared) here. Cases after examples gen_data.py (fp16 [4096, 1024], int64 targets, ignore_index -100, no smoothing; here [256, 1024]) plus weight, smoothing, sum and none."""
import numpy as np
PATH = "src/loss/cross_entropy_loss"
SOCS = ["Ascend910B1"]
# zloss and lse_for_zloss are not computed (return_zloss false): [1] each, as the example's
# main.cpp allocates them. Stated because the op's InferShape fails for every valid input, so it
# cannot give their shapes: its OP_CHECK acts when the condition is false (op_host/
# cross_entropy_loss_proto.cpp lines 34-36) but is called with the error condition (lines 91, 95:
# `GetDimNum() != DIM_NUM_2`); aclnn, which the example uses, does not run InferShape
ZLOSS_SHAPES = {"zloss": [1], "lse_for_zloss": [1]}
CASES = [
    {"name": "gen_mean_256x1024", "shapes": {"input": [256, 1024], "target": [256]}, "attrs": {"reduction": "mean"}, "output_shapes": ZLOSS_SHAPES,
     "ranges": {"input": [-3.0, 3.0], "target": [0, 1023]}},
    {"name": "weight_smooth_sum", "shapes": {"input": [64, 100], "target": [64], "weight": [100]},
     "attrs": {"reduction": "sum", "label_smoothing": 0.1}, "output_shapes": ZLOSS_SHAPES, "ranges": {"input": [-3.0, 3.0], "target": [0, 99], "weight": [0.5, 2.0]}},
    {"name": "none_ignore", "shapes": {"input": [33, 77], "target": [33]}, "attrs": {"reduction": "none", "ignore_index": 5}, "output_shapes": ZLOSS_SHAPES,
     "ranges": {"input": [-3.0, 3.0], "target": [0, 9]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(input, target, weight, *, reduction="mean", ignore_index=-100, label_smoothing=0.0,
           lse_square_scale_for_zloss=0.0, return_zloss=False):
    x = input.astype(np.float64)
    n, c = x.shape
    m = x.max(axis=1, keepdims=True)
    logp = x - m - np.log(np.exp(x - m).sum(axis=1, keepdims=True))
    w = np.ones(c) if weight is None else weight.astype(np.float64)
    t = target.astype(np.int64)
    keep = (t != ignore_index).astype(np.float64) if ignore_index >= 0 else np.ones(n)
    safe_t = np.where(t == ignore_index, 0, t)
    w_t = w[safe_t]
    nll = -logp[np.arange(n), safe_t] * w_t * keep
    smooth = -(logp * w[None, :]).sum(axis=1) * keep
    if reduction == "mean":
        denom = (w_t * keep).sum()
        loss = np.array([(1 - label_smoothing) * nll.sum() / denom + smooth.sum() / denom * label_smoothing / c])
    elif reduction == "sum":
        loss = np.array([(1 - label_smoothing) * nll.sum() + smooth.sum() * label_smoothing / c])
    else:
        loss = (1 - label_smoothing) * nll + smooth * label_smoothing / c
    return loss, logp, None, None


OUT_OF_SCOPE = None
