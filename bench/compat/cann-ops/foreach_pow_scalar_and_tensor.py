"""ForeachPowScalarAndTensor (cann-ops src/foreach/foreach_pow_scalar_and_tensor): y[i] = scalar ** x[i] (the scalar is the base). Cases: examples/AclNNInvocationNaive/gen_data.py (two [8, 2048] tensors) plus ragged and mixed lists."""
import numpy as np
from _shared import LIST, foreach_cases, FOREACH_TOLERANCE
PATH = "src/foreach/foreach_pow_scalar_and_tensor"
SOCS = ["Ascend910B1"]
CASES = foreach_cases({'x': [0.0, 3.0], 'scalar': [1.9, 2.1]}, x=LIST, scalar=[1])
TOLERANCE = FOREACH_TOLERANCE


def golden(scalar, x):
    s = scalar.reshape(-1)[0]
    if np.issubdtype(x[0].dtype, np.integer):
        return [(np.int64(s) ** t.astype(np.int64)).astype(x[0].dtype) for t in x]
    return [np.float32(s) ** t.astype(np.float32) for t in x]


OUT_OF_SCOPE = None
