"""MatMulV3 (cann-ops src/matmul/mat_mul_v3): y = op(x1) @ op(x2) (+ bias), op a transpose when
transpose_x1 / transpose_x2 is set; float16, float32 and bfloat16 (sums in float32 on the cube,
then rounded to y's dtype); offset_w (a quantisation offset) is not used by these cases. Cases:
its gen_data.py's [16, 32] x [32, 16] (uniform in [-1, 1]), a larger unaligned one with bias and
one with x2 given transposed."""
import numpy as np

PATH = "src/matmul/mat_mul_v3"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_16x32x16", "shapes": {"x1": [16, 32], "x2": [32, 16]},
     "ranges": {"x1": [-1, 1], "x2": [-1, 1]}},
    {"name": "bias_100x200x70", "shapes": {"x1": [100, 200], "x2": [200, 70], "bias": [70]},
     "ranges": {"x1": [-1, 1], "x2": [-1, 1], "bias": [-1, 1]}},
    {"name": "trans_x2_64x96x48", "shapes": {"x1": [64, 96], "x2": [48, 96]},
     "attrs": {"transpose_x2": True}, "ranges": {"x1": [-1, 1], "x2": [-1, 1]}},
]
TOLERANCE = {"float16": {"rtol": 2e-3, "atol": 2e-3}, "bfloat16": {"rtol": 8e-3, "atol": 8e-3}}


def golden(x1, x2, bias, offset_w, *, transpose_x1=False, transpose_x2=False, offset_x=0,
           enable_hf32=False):
    a = x1.astype(np.float64)
    b = x2.astype(np.float64)
    if transpose_x1:
        a = np.swapaxes(a, -1, -2)
    if transpose_x2:
        b = np.swapaxes(b, -1, -2)
    y = a @ b
    if bias is not None:
        y = y + bias.astype(np.float64)
    return y


OUT_OF_SCOPE = None
