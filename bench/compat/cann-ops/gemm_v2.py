"""GemmV2 (cann-ops src/matmul/gemm_v2): c = alpha * op(a) @ op(b) + beta * c, op a transpose when
transpose_a / transpose_b is set; a and b float16 or bfloat16, alpha and beta one-element tensors
of a's dtype, c float32 and a ref tensor (the OpDef's input and output share the name c). The
example directory has no data generator; the cases are a plain product (alpha 1, beta 0, the
BLAS meaning when c starts at anything) and one with alpha 2, beta 0.5."""
import numpy as np

PATH = "src/matmul/gemm_v2"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "alpha1_beta0_64x96x80", "shapes": {"a": [64, 96], "b": [96, 80], "alpha": [1], "beta": [1],
                                                  "c": [64, 80]},
     "ranges": {"a": [-1, 1], "b": [-1, 1], "alpha": [1, 1], "beta": [0, 0], "c": [-1, 1]}},
    {"name": "alpha2_beta05_48x64x32", "shapes": {"a": [48, 64], "b": [64, 32], "alpha": [1], "beta": [1],
                                                   "c": [48, 32]},
     "ranges": {"a": [-1, 1], "b": [-1, 1], "alpha": [2, 2], "beta": [0.5, 0.5], "c": [-1, 1]}},
]


def golden(a, b, alpha, beta, c, *, transpose_a=False, transpose_b=False):
    x = a.astype(np.float64)
    y = b.astype(np.float64)
    if transpose_a:
        x = x.T
    if transpose_b:
        y = y.T
    return float(alpha.reshape(-1)[0]) * (x @ y) + float(beta.reshape(-1)[0]) * c.astype(np.float64)


OUT_OF_SCOPE = None
