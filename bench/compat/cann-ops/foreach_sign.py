"""ForeachSign (cann-ops src/foreach/foreach_sign): y[i] = sign(x[i]) (-1, 0 or 1; int8/int32/int64 too). Cases: examples/AclNNInvocationNaive/gen_data.py (two [8, 2048] tensors) plus ragged and mixed lists."""
import numpy as np
from _shared import LIST, foreach_cases, FOREACH_TOLERANCE, up
PATH = "src/foreach/foreach_sign"
SOCS = ["Ascend910B1"]
CASES = foreach_cases({'x': [-2.0, 2.0]}, x=LIST)
TOLERANCE = FOREACH_TOLERANCE


def golden(x):
    return [np.sign(up(t)) for t in x]


OUT_OF_SCOPE = None
