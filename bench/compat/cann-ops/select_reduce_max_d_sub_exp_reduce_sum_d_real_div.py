"""SelectReduceMaxDSubExpReduceSumDRealDiv (cann-ops src/math/select_reduce_max_d_sub_exp_reduce_sum_d_real_div): v = where(sel, input1, input2); ouput = softmax(v) along the last axis (max, subtract, exp, sum, divide). Case from examples gen_data.py ((64, 1, 60), values in [0, 1)) plus a wider row."""
import numpy as np
PATH = "src/math/select_reduce_max_d_sub_exp_reduce_sum_d_real_div"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_64x1x60", "shapes": {"sel": [64, 1, 60], "input1": [64, 1, 60], "input2": [64, 1, 60]}, "attrs": {},
     "ranges": {"input1": [0.0, 1.0], "input2": [0.0, 1.0]}},
    {"name": "rows_16x1x512", "shapes": {"sel": [16, 1, 512], "input1": [16, 1, 512], "input2": [16, 1, 512]}, "attrs": {},
     "ranges": {"input1": [-2.0, 2.0], "input2": [-2.0, 2.0]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(sel, input1, input2):
    v = np.where(sel, input1.astype(np.float64), input2.astype(np.float64))
    e = np.exp(v - v.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


OUT_OF_SCOPE = None
