"""ForeachSinh (cann-ops src/foreach/foreach_sinh): y[i] = sinh(x) for every tensor x[i] of the list. Cases: examples/AclNNInvocationNaive/gen_data.py (two [8, 2048] tensors) plus ragged and mixed lists."""
import numpy as np
from _shared import LIST, foreach_cases, FOREACH_TOLERANCE, each_f32
PATH = "src/foreach/foreach_sinh"
SOCS = ["Ascend910B1"]
CASES = foreach_cases({'x': [-3.0, 3.0]}, x=LIST)
TOLERANCE = FOREACH_TOLERANCE


def golden(x):
    return each_f32(np.sinh, x)


OUT_OF_SCOPE = None
