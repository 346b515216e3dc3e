"""Pows (cann-ops src/math/pows): y = x1 ** x2, x2 a one-element exponent tensor. The kernel
computes only the exponents aclnnPowTensorScalar routes to it (op_host/aclnn_pow.cpp lines
199-203, 251-255: 0.5, 2, 3, -0.5, -1, -2; any other goes to l0op::Pow, and the kernel's
ComputePowsBase writes nothing for it), so each case fixes one of those exponents (a constant
range). The examples' gen_data.py ([2, 2] integral in [1, 5)) takes exponent 4.1, which aclnn sends
to Pow, not to this kernel: its shape and range here with exponent 3; plus larger and ragged
shapes for every other exponent."""
import numpy as np
PATH = "src/math/pows"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_2x2_cube", "shapes": {"x1": [2, 2], "x2": [1]}, "attrs": {}, "ranges": {"x1": [1.0, 4.0], "x2": [3.0, 3.0]}},
    {"name": "square_64x1024", "shapes": {"x1": [64, 1024], "x2": [1]}, "attrs": {}, "ranges": {"x1": [-3.0, 3.0], "x2": [2.0, 2.0]}},
    {"name": "sqrt_ragged", "shapes": {"x1": [3, 777], "x2": [1]}, "attrs": {}, "ranges": {"x1": [0.0, 9.0], "x2": [0.5, 0.5]}},
    {"name": "rsqrt_ragged", "shapes": {"x1": [5, 333], "x2": [1]}, "attrs": {}, "ranges": {"x1": [0.25, 9.0], "x2": [-0.5, -0.5]}},
    {"name": "reciprocal", "shapes": {"x1": [16, 1000], "x2": [1]}, "attrs": {}, "ranges": {"x1": [0.5, 4.0], "x2": [-1.0, -1.0]}},
    {"name": "inv_square_ragged", "shapes": {"x1": [7, 129], "x2": [1]}, "attrs": {}, "ranges": {"x1": [0.5, 4.0], "x2": [-2.0, -2.0]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(x1, x2):
    return np.power(x1.astype(np.float64), float(x2.reshape(-1)[0]))


OUT_OF_SCOPE = None
