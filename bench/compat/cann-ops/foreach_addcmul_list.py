"""ForeachAddcmulList (cann-ops src/foreach/foreach_addcmul_list): y[i] = x1[i] + scalars[i] (a tensor of one value per list entry) * x2[i] * x3[i]. Cases: examples gen_data.py ([6] and [3] tensors, one scalar per tensor) plus [8, 2048] and mixed lists."""
import numpy as np
from _shared import LIST, PER_TENSOR, foreach_cases, FOREACH_TOLERANCE, up, scalar_like
PATH = "src/foreach/foreach_addcmul_list"
SOCS = ["Ascend910B1"]
CASES = foreach_cases({'scalars': [0.5, 2.5]}, x1=LIST, x2=LIST, x3=LIST, scalars=PER_TENSOR)
TOLERANCE = FOREACH_TOLERANCE


def golden(x1, x2, x3, scalars):
    ss = list(scalars.reshape(-1))
    return [up(a) + scalar_like(s, b) * (up(b) * up(c)) for a, b, c, s in zip(x1, x2, x3, ss)]


OUT_OF_SCOPE = None
