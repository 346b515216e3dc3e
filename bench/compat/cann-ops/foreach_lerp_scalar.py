"""ForeachLerpScalar (cann-ops src/foreach/foreach_lerp_scalar): y[i] = x1[i] + weight * (x2[i] - x1[i]), weight a one-element fp32 tensor. Cases: examples/AclNNInvocationNaive/gen_data.py (two [8, 2048] tensors) plus ragged and mixed lists."""
import numpy as np
from _shared import LIST, foreach_cases, FOREACH_TOLERANCE
PATH = "src/foreach/foreach_lerp_scalar"
SOCS = ["Ascend910B1"]
CASES = foreach_cases({'weight': [0.285, 0.315]}, x1=LIST, x2=LIST, weight=[1])
TOLERANCE = FOREACH_TOLERANCE


def golden(x1, x2, weight):
    w = np.float32(weight.reshape(-1)[0])
    return [p.astype(np.float32) + w * (q.astype(np.float32) - p.astype(np.float32)) for p, q in zip(x1, x2)]


OUT_OF_SCOPE = None
