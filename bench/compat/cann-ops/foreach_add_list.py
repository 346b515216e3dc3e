"""ForeachAddList (cann-ops src/foreach/foreach_add_list): y[i] = x1[i] + alpha * x2[i], alpha a one-element tensor. Cases: examples/AclNNInvocationNaive/gen_data.py (two [8, 2048] tensors) plus ragged and mixed lists."""
import numpy as np
from _shared import LIST, foreach_cases, FOREACH_TOLERANCE, up, first
PATH = "src/foreach/foreach_add_list"
SOCS = ["Ascend910B1"]
CASES = foreach_cases({'alpha': [1.14, 1.26]}, x1=LIST, x2=LIST, alpha=[1])
TOLERANCE = FOREACH_TOLERANCE


def golden(x1, x2, alpha):
    a = first(alpha)
    return [up(p) + a * up(q) for p, q in zip(x1, x2)]


OUT_OF_SCOPE = None
