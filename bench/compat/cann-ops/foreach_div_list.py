"""ForeachDivList (cann-ops src/foreach/foreach_div_list): y[i] = x1[i] / x2[i] (divisors kept away from 0). Cases: examples/AclNNInvocationNaive/gen_data.py (two [8, 2048] tensors) plus ragged and mixed lists."""
import numpy as np
from _shared import LIST, foreach_cases, FOREACH_TOLERANCE
PATH = "src/foreach/foreach_div_list"
SOCS = ["Ascend910B1"]
CASES = foreach_cases({'x2': [0.5, 2.0]}, x1=LIST, x2=LIST)
TOLERANCE = FOREACH_TOLERANCE


def golden(x1, x2):
    return [p.astype(np.float32) / q.astype(np.float32) for p, q in zip(x1, x2)]


OUT_OF_SCOPE = None
