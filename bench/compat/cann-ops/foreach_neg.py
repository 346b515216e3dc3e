"""ForeachNeg (cann-ops src/foreach/foreach_neg): y[i] = -x[i]. Cases: examples/AclNNInvocationNaive/gen_data.py (two [8, 2048] tensors) plus ragged and mixed lists."""
import numpy as np
from _shared import LIST, foreach_cases, FOREACH_TOLERANCE, up
PATH = "src/foreach/foreach_neg"
SOCS = ["Ascend910B1"]
CASES = foreach_cases({'x': [-100.0, 100.0]}, x=LIST)
TOLERANCE = FOREACH_TOLERANCE


def golden(x):
    return [-up(t) for t in x]


OUT_OF_SCOPE = None
