"""ForeachAddcmulScalar (cann-ops src/foreach/foreach_addcmul_scalar): y[i] = x1[i] + scalar (a one-element tensor) * x2[i] * x3[i]. Cases: examples gen_data.py ([6] and [3] tensors, one scalar per tensor) plus [8, 2048] and mixed lists."""
import numpy as np
from _shared import LIST, foreach_cases, FOREACH_TOLERANCE, up, scalar_like
PATH = "src/foreach/foreach_addcmul_scalar"
SOCS = ["Ascend910B1"]
CASES = foreach_cases({'scalar': [1.14, 1.26]}, x1=LIST, x2=LIST, x3=LIST, scalar=[1])
TOLERANCE = FOREACH_TOLERANCE


def golden(x1, x2, x3, scalar):
    s = scalar.reshape(-1)[0]
    ss = [s] * len(x1)
    return [up(a) + scalar_like(s, b) * (up(b) * up(c)) for a, b, c, s in zip(x1, x2, x3, ss)]


OUT_OF_SCOPE = None
