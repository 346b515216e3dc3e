"""ForeachZeroInplace (cann-ops src/foreach/foreach_zero_inplace): x[i] = 0 in place; the OpDef declares no output, so the expected values are those of the input list after the run (INPLACE). Cases: examples gen_data.py (two [8, 2048] tensors) plus ragged and mixed lists."""
import numpy as np
PATH = "src/foreach/foreach_zero_inplace"
SOCS = ["Ascend910B1"]
_LISTS = {"example": [[8, 2048], [8, 2048]], "ragged": [[6], [3]],
          "mixed": [[1], [255], [16, 17], [3, 5, 7], [4096]]}
CASES = [{"name": n, "shapes": {"x": s}, "attrs": {}, "ranges": {"x": [1.0, 100.0]}}
         for n, s in _LISTS.items()]
INPLACE = ["x"]        # inputs the kernel rewrites; golden returns their expected contents


def golden(x):
    return ([np.zeros_like(t) for t in x],)


OUT_OF_SCOPE = None
