"""ForeachMulScalar (cann-ops src/foreach/foreach_mul_scalar): y[i] = x[i] * scalar, the scalar a one-element tensor. Cases: examples/AclNNInvocationNaive/gen_data.py (two [8, 2048] tensors) plus ragged and mixed lists."""
import numpy as np
from _shared import LIST, foreach_cases, FOREACH_TOLERANCE, up, first
PATH = "src/foreach/foreach_mul_scalar"
SOCS = ["Ascend910B1"]
CASES = foreach_cases({'x': [-1.0, 1.0], 'scalar': [1.14, 1.26]}, x=LIST, scalar=[1])
TOLERANCE = FOREACH_TOLERANCE


def golden(x, scalar):
    s = first(scalar)
    return [up(t) * s for t in x]


OUT_OF_SCOPE = None
