"""ForeachAddScalarList (cann-ops src/foreach/foreach_add_scalar_list): y[i] = x[i] + scalars[i], one scalar per tensor. Cases: examples/AclNNInvocationNaive/gen_data.py (two [8, 2048] tensors) plus ragged and mixed lists."""
import numpy as np
from _shared import LIST, PER_TENSOR, foreach_cases, FOREACH_TOLERANCE, up, scalar_like
PATH = "src/foreach/foreach_add_scalar_list"
SOCS = ["Ascend910B1"]
CASES = foreach_cases({'scalars': [0.5, 2.5]}, x=LIST, scalars=PER_TENSOR)
TOLERANCE = FOREACH_TOLERANCE


def golden(x, scalars):
    out = []
    for t, s in zip(x, scalars.reshape(-1)):
        s = scalar_like(s, scalars)
        out.append(up(t) + s)
    return out


OUT_OF_SCOPE = None
