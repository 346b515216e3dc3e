"""MulSigmoidMulAddCustom (cann-ops src/math/mul_sigmoid_mul_add_custom): outputs = sigmoid(input * mulscalar1) * mulscalar2 + addscalar3, the three scalars one-element tensors. Case from examples gen_data.py ([32, 32], scalars 1.2, 1.3, 1.4) plus larger and ragged shapes."""
import numpy as np
PATH = "src/math/mul_sigmoid_mul_add_custom"
SOCS = ["Ascend910B1"]
_R = {"input": [-3.0, 3.0], "mulscalar1": [1.14, 1.26], "mulscalar2": [1.235, 1.365], "addscalar3": [1.33, 1.47]}
CASES = [
    {"name": "gen_32x32", "shapes": {"input": [32, 32], "mulscalar1": [1], "mulscalar2": [1], "addscalar3": [1]}, "attrs": {}, "ranges": _R},
    {"name": "rows_128x1024", "shapes": {"input": [128, 1024], "mulscalar1": [1], "mulscalar2": [1], "addscalar3": [1]}, "attrs": {}, "ranges": _R},
    {"name": "ragged_5x77", "shapes": {"input": [5, 77], "mulscalar1": [1], "mulscalar2": [1], "addscalar3": [1]}, "attrs": {}, "ranges": _R},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(input, mulscalar1, mulscalar2, addscalar3):
    a, b, c = (float(t.reshape(-1)[0]) for t in (mulscalar1, mulscalar2, addscalar3))
    return 1.0 / (1.0 + np.exp(-input.astype(np.float64) * a)) * b + c


OUT_OF_SCOPE = None
