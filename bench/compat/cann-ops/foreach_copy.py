"""ForeachCopy (cann-ops src/foreach/foreach_copy): y[i] = x[i], a copy of every tensor of the list, in any of its twelve dtypes. Cases: examples gen_data.py (two [8, 2048] tensors) plus ragged and mixed lists."""
import numpy as np
PATH = "src/foreach/foreach_copy"
SOCS = ["Ascend910B1"]
_LISTS = {"example": [[8, 2048], [8, 2048]], "ragged": [[6], [3]],
          "mixed": [[1], [255], [16, 17], [3, 5, 7], [4096]]}
CASES = [{"name": n, "shapes": {"x": s}, "attrs": {}, "ranges": {"x": [-100.0, 100.0]},
          "output_shapes": {"y": s}} for n, s in _LISTS.items()]
TOLERANCE = {dt: {"rtol": 0.0, "atol": 0.0, "error_ratio": 0.0}   # a copy is exact
             for dt in ("float32", "float16", "bfloat16", "int32")}


def golden(x):
    return [t.copy() for t in x]


OUT_OF_SCOPE = None
