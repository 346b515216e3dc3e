"""ForeachZeroInplace (cann-ops src/foreach/foreach_zero_inplace): x[i] = 0 in place; the OpDef declares no output, so the expected values are those of the input list after the run (INPLACE). Cases: examples gen_data.py (two [8, 2048] tensors) plus ragged and mixed lists."""
import numpy as np
from _shared import FOREACH_LISTS
PATH = "src/foreach/foreach_zero_inplace"
SOCS = ["Ascend910B1"]
CASES = [{"name": n, "shapes": {"x": s}, "attrs": {}, "ranges": {"x": [1.0, 100.0]}}
         for n, s in FOREACH_LISTS.items()]
INPLACE = ["x"]        # inputs the kernel rewrites; golden returns their expected contents


def golden(x):
    return ([np.zeros_like(t) for t in x],)


OUT_OF_SCOPE = None
