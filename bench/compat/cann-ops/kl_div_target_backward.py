"""KlDivTargetBackward (cann-ops src/math/kl_div_target_backward): the gradient of KL divergence w.r.t. the target, broadcasting self: log_target: grad_output * (target + 1 - self) * exp(target); else grad_output * (log(target) + 1 - self), 0 where target == 0; reduction 1 (mean) divides by the largest element count. Cases from examples gen_data.py (grad_output, target [4, 400], self [1, 400], reduction 0, log_target true; self here [4, 400]: the example calls aclnnKlDivTargetBackward, whose aclnn layer (op_host/aclnn_kl_div_target_backward.cpp) broadcasts every input to the common shape before it launches the kernel, which reads all three with the same offsets) plus log_target false with positive targets and mean."""
import numpy as np
PATH = "src/math/kl_div_target_backward"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_log_target", "shapes": {"grad_output": [4, 400], "self": [4, 400], "target": [4, 400]},
     "attrs": {"reduction": 0, "log_target": True}, "ranges": {}},
    {"name": "plain_target_mean", "shapes": {"grad_output": [4, 400], "self": [4, 400], "target": [4, 400]},
     "attrs": {"reduction": 1, "log_target": False}, "ranges": {"target": [0.05, 1.0]}},
    {"name": "ragged", "shapes": {"grad_output": [3, 37], "self": [3, 37], "target": [3, 37]},
     "attrs": {"reduction": 0, "log_target": True}, "ranges": {}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(grad_output, self, target, *, reduction=0, log_target=False):
    g, s, t = (a.astype(np.float64) for a in (grad_output, self, target))
    if log_target:
        r = g * (t + 1.0 - s) * np.exp(t)
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            r = np.where(t == 0, 0.0, g * (np.log(t) + 1.0 - s))
    if reduction == 1:
        r = r / max(g.size, s.size, t.size)
    return r


OUT_OF_SCOPE = None
