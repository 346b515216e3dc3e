"""Mmad (cann-ops src/matmul/mmad): c = a @ b + bias on the cube basic APIs (Nd2Nz copy-in,
LoadData 2D with and without transpose, Mmad with a bias table, Fixpipe NZ -> ND), float16 a and
b, float32 bias and c. The kernel hard-codes M = K = N = 32 (op_kernel mmad.cpp, the class's m, k,
n) and the tiling a 16-column split of B, so the only shape is its gen_data.py's, with its inputs
(integers 1..9, exact sums); a second case draws signed values."""
import numpy as np

PATH = "src/matmul/mmad"
CASES = [
    {"name": "gen_data", "shapes": {"a": [32, 32], "b": [32, 32], "bias": [32]},
     "ranges": {"a": [1, 10], "b": [1, 10], "bias": [1, 10]}},
    {"name": "signed", "shapes": {"a": [32, 32], "b": [32, 32], "bias": [32]},
     "ranges": {"a": [-4, 4], "b": [-4, 4], "bias": [-8, 8]}},
]


def golden(a, b, bias):
    return a.astype(np.float64) @ b.astype(np.float64) + bias.astype(np.float64)


OUT_OF_SCOPE = None
