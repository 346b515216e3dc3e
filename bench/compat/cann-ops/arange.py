"""Arange (cann-ops src/math/arange): out = start, start + step, ... up to (excluding) end; start, end and step are 0-d tensors, the output length ceil((end - start) / step). Cases after tests/st/Arange_case_alltype.json (start 1, end -1113, negative steps) with integral values exact in every dtype (bf16 too), so one output shape holds for all variants (int32/int64 included, hence no fractional step)."""
import numpy as np
PATH = "src/math/arange"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_neg_step2", "shapes": {"start": [], "end": [], "step": []}, "attrs": {},
     "ranges": {"start": [2, 2], "end": [-510, -510], "step": [-2, -2]}, "output_shapes": {"out": [256]}},
    {"name": "pos_step1", "shapes": {"start": [], "end": [], "step": []}, "attrs": {},
     "ranges": {"start": [0, 0], "end": [37, 37], "step": [1, 1]}, "output_shapes": {"out": [37]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(start, end, step):
    s, e, d = (float(np.float64(t.reshape(-1)[0].astype(np.float64))) for t in (start, end, step))
    n = int(np.ceil((e - s) / d))
    return s + d * np.arange(n, dtype=np.float64)


OUT_OF_SCOPE = None
