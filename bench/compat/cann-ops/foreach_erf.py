"""ForeachErf (cann-ops src/foreach/foreach_erf): y[i] = erf(x) for every tensor x[i] of the list. Cases: examples/AclNNInvocationNaive/gen_data.py (two [8, 2048] tensors) plus ragged and mixed lists."""
import math
import numpy as np
from _shared import LIST, foreach_cases, FOREACH_TOLERANCE, each_f32
PATH = "src/foreach/foreach_erf"
SOCS = ["Ascend910B1"]
_ERF = np.frompyfunc(math.erf, 1, 1)   # no scipy: the standard library's erf, element-wise
CASES = foreach_cases({'x': [-2.0, 2.0]}, x=LIST)
TOLERANCE = FOREACH_TOLERANCE


def golden(x):
    return each_f32(lambda v: _ERF(v).astype(np.float32), x)


OUT_OF_SCOPE = None
