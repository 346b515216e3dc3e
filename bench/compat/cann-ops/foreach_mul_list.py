"""ForeachMulList (cann-ops src/foreach/foreach_mul_list): y[i] = x1[i] * x2[i]. Cases: examples/AclNNInvocationNaive/gen_data.py (two [8, 2048] tensors) plus ragged and mixed lists."""
import numpy as np
from _shared import LIST, foreach_cases, FOREACH_TOLERANCE, up
PATH = "src/foreach/foreach_mul_list"
SOCS = ["Ascend910B1"]
CASES = foreach_cases({'x1': [-10.0, 10.0], 'x2': [-10.0, 10.0]}, x1=LIST, x2=LIST)
TOLERANCE = FOREACH_TOLERANCE


def golden(x1, x2):
    return [up(p) * up(q) for p, q in zip(x1, x2)]


OUT_OF_SCOPE = None
