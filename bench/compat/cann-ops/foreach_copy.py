"""ForeachCopy (cann-ops src/foreach/foreach_copy): y[i] = x[i], a copy of every tensor of the list, in any of its twelve dtypes. Cases: examples gen_data.py (two [8, 2048] tensors) plus ragged and mixed lists."""
import numpy as np
from _shared import FOREACH_LISTS
PATH = "src/foreach/foreach_copy"
SOCS = ["Ascend910B1"]
CASES = [{"name": n, "shapes": {"x": s}, "attrs": {}, "ranges": {"x": [-100.0, 100.0]},
          "output_shapes": {"y": s}} for n, s in FOREACH_LISTS.items()]
TOLERANCE = {dt: {"rtol": 0.0, "atol": 0.0, "error_ratio": 0.0}   # a copy is exact
             for dt in ("float32", "float16", "bfloat16", "int32")}


def golden(x):
    return [t.copy() for t in x]


OUT_OF_SCOPE = None
