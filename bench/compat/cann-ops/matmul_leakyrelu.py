"""MatmulLeakyrelu (cann-ops src/math/matmul_leakyrelu): c = leaky_relu(a @ b + bias), alpha 0.001
fixed in the tiling; a, b float16, bias and c float32; the products run on the cube unit (the
high-level Matmul, Iterate / GetTensorC into UB) and LeakyRelu on the vector unit. The tiling
hard-codes M 1024, N 640, K 256 (examples/AclNNInvocationNaive/gen_data.py), so every case has
those shapes. Its inputs are integers 1..9 (exact sums); here they are drawn uniformly in [1, 10],
and b and bias take negative values in the second case (so the leaky branch runs), so the float32
sums round and the default float32 tolerance applies."""
import numpy as np

PATH = "src/math/matmul_leakyrelu"
CASES = [
    {"name": "gen_data", "shapes": {"a": [1024, 256], "b": [256, 640], "bias": [640]},
     "ranges": {"a": [1, 10], "b": [1, 10], "bias": [1, 10]}},
    {"name": "negative", "shapes": {"a": [1024, 256], "b": [256, 640], "bias": [640]},
     "ranges": {"a": [1, 10], "b": [-10, 10], "bias": [-10, 10]}},
]


def golden(a, b, bias):
    c = a.astype(np.float64) @ b.astype(np.float64) + bias.astype(np.float64)
    return np.where(c >= 0, c, c * np.float32(0.001))


OUT_OF_SCOPE = None
