"""ForeachAddcdivList (cann-ops src/foreach/foreach_addcdiv_list): y[i] = x1[i] + scalars[i] (a tensor of one value per list entry) * x2[i] / x3[i]. Cases: examples gen_data.py ([6] and [3] tensors, one scalar per tensor) plus [8, 2048] and mixed lists."""
import numpy as np
from _shared import LIST, PER_TENSOR, foreach_cases, FOREACH_TOLERANCE
PATH = "src/foreach/foreach_addcdiv_list"
SOCS = ["Ascend910B1"]
CASES = foreach_cases({'x3': [0.5, 2.0], 'scalars': [0.5, 2.5]}, x1=LIST, x2=LIST, x3=LIST, scalars=PER_TENSOR)
TOLERANCE = FOREACH_TOLERANCE


def golden(x1, x2, x3, scalars):
    ss = list(scalars.reshape(-1))
    return [a.astype(np.float32) + np.float32(s) * (b.astype(np.float32) / c.astype(np.float32)) for a, b, c, s in zip(x1, x2, x3, ss)]


OUT_OF_SCOPE = None
