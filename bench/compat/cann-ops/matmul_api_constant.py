"""MatmulApiConstant (cann-ops src/math/matmul_api_constant): c = a @ b + bias with the high-level
Matmul built from a constant (compile-time) tiling; a, b float16, bias and c float32. The tiling
hard-codes M 1024, N 640, K 256 (op_host lines 25-27, as its gen_data.py), so every case has those
shapes; inputs integers 1..9 as its data generator (exact sums), then signed values."""
import numpy as np

PATH = "src/math/matmul_api_constant"
CASES = [
    {"name": "gen_data", "shapes": {"a": [1024, 256], "b": [256, 640], "bias": [640]},
     "ranges": {"a": [1, 10], "b": [1, 10], "bias": [1, 10]}},
    {"name": "signed", "shapes": {"a": [1024, 256], "b": [256, 640], "bias": [640]},
     "ranges": {"a": [-2, 2], "b": [-2, 2], "bias": [-10, 10]}},
]


def golden(a, b, bias):
    return a.astype(np.float64) @ b.astype(np.float64) + bias.astype(np.float64)


OUT_OF_SCOPE = None
