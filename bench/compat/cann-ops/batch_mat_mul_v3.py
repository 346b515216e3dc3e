"""BatchMatMulV3 (cann-ops src/matmul/batch_mat_mul_v3): y[i] = op(x1[i]) @ op(x2[i]) (+ bias) over
the leading batch dims, op a transpose when adj_x1 / adj_x2 is set; float16, float32 and bfloat16
(sums in float32 on the cube, rounded to y's dtype); offset_w is not used by these cases. Cases:
its gen_data.py's [1, 2, 3] x [1, 3, 4] (uniform in [-1, 1]) and a larger batched one."""
import numpy as np

PATH = "src/matmul/batch_mat_mul_v3"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_1x2x3x4", "shapes": {"x1": [1, 2, 3], "x2": [1, 3, 4]},
     "ranges": {"x1": [-1, 1], "x2": [-1, 1]}},
    {"name": "batch_4x40x64x48", "shapes": {"x1": [4, 40, 64], "x2": [4, 64, 48]},
     "ranges": {"x1": [-1, 1], "x2": [-1, 1]}},
]
TOLERANCE = {"float16": {"rtol": 2e-3, "atol": 2e-3}, "bfloat16": {"rtol": 8e-3, "atol": 8e-3}}


def golden(x1, x2, bias, offset_w, *, adj_x1=False, adj_x2=False, offset_x=0, enable_hf32=False):
    a = x1.astype(np.float64)
    b = x2.astype(np.float64)
    if adj_x1:
        a = np.swapaxes(a, -1, -2)
    if adj_x2:
        b = np.swapaxes(b, -1, -2)
    y = a @ b
    if bias is not None:
        y = y + bias.astype(np.float64)
    return y


OUT_OF_SCOPE = None
