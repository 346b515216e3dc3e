"""ComplexMatMul (cann-ops src/matmul/complex_mat_mul): z = x @ y + bias over complex64 matrices
with any number of leading batch dims (x [.., M, K], y [.., K, N], bias [.., M, N]). The kernel
splits the operands into real and imaginary planes (and their sum) in a workspace, runs three
float32 products with the high-level Matmul (a mixed AIC/AIV kernel, CFG_MDL) and recombines them
(Gauss's three-multiplication form), so float32 rounding of K-long sums applies. Its InferShape gives z x's shape (op_host
complex_mat_mul.cpp lines 120-122), [.., M, K] instead of [.., M, N], right only when K == N (its
own example, [4, 300, 400] x [4, 400, 500], would get a [4, 300, 400] z from it; aclnn callers
pass z themselves); so the cases keep K == N: its gen_data.py's M and K (300, 400) with 2
batches instead of 4 (the harness keeps a case under 1M elements), and a small unaligned one."""
import numpy as np

PATH = "src/matmul/complex_mat_mul"
SOCS = ["Ascend910B1"]
TOLERANCE = {"complex64": {"rtol": 1e-4, "atol": 1e-3}}
CASES = [
    {"name": "small", "shapes": {"x": [2, 20, 36], "y": [2, 36, 36], "bias": [2, 20, 36]},
     "ranges": {"x": [-1, 1], "y": [-1, 1], "bias": [-1, 1]}},
    {"name": "gen_shape", "shapes": {"x": [2, 300, 400], "y": [2, 400, 400], "bias": [2, 300, 400]},
     "ranges": {"x": [-2, 2], "y": [-2, 2], "bias": [-2, 2]}},
]


def golden(x, y, bias):
    z = np.matmul(x.astype(np.complex128), y.astype(np.complex128)) + bias.astype(np.complex128)
    return z.astype(np.complex64)


OUT_OF_SCOPE = None
