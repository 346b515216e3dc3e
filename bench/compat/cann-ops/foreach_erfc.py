"""ForeachErfc (cann-ops src/foreach/foreach_erfc): y[i] = erfc(x) = 1 - erf(x) for every tensor x[i] of the list. Cases: examples/AclNNInvocationNaive/gen_data.py (two [8, 2048] tensors) plus ragged and mixed lists."""
import math
import numpy as np
from _shared import LIST, foreach_cases, FOREACH_TOLERANCE, each_f32
PATH = "src/foreach/foreach_erfc"
SOCS = ["Ascend910B1"]
_ERFC = np.frompyfunc(math.erfc, 1, 1)   # no scipy: the standard library's erfc, element-wise
CASES = foreach_cases({'x': [-2.0, 2.0]}, x=LIST)
TOLERANCE = FOREACH_TOLERANCE


def golden(x):
    return each_f32(lambda v: _ERFC(v).astype(np.float32), x)


OUT_OF_SCOPE = None
