"""MulMulReduceMeanDTwice (cann-ops src/math/mul_mul_reduce_mean_d_twice): a fused layer-norm: m = mul0_input0 * mul0_input1 * mul1_input0; mean and variance of m along the last axis; r = gamma / sqrt(var + add_y); output = beta - r * mean + r * m. mul1_input0 and add_y are one-element tensors. Case from examples gen_data.py ([90, 1024] in [0, 1), gamma and beta [1, 1024], both scalars 1.0) plus a ragged width."""
import numpy as np
PATH = "src/math/mul_mul_reduce_mean_d_twice"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_90x1024", "shapes": {"mul0_input0": [90, 1024], "mul0_input1": [90, 1024], "mul1_input0": [1], "add_y": [1],
                                      "gamma": [1, 1024], "beta": [1, 1024]}, "attrs": {},
     "ranges": {"mul0_input0": [0.0, 1.0], "mul0_input1": [0.0, 1.0], "mul1_input0": [0.95, 1.05], "add_y": [0.95, 1.05],
                "gamma": [0.0, 1.0], "beta": [0.0, 1.0]}},
    {"name": "ragged_7x100", "shapes": {"mul0_input0": [7, 100], "mul0_input1": [7, 100], "mul1_input0": [1], "add_y": [1],
                                       "gamma": [1, 100], "beta": [1, 100]}, "attrs": {},
     "ranges": {"mul0_input0": [0.0, 1.0], "mul0_input1": [0.0, 1.0], "mul1_input0": [0.475, 0.525], "add_y": [9.5e-06, 1.05e-05],
                "gamma": [0.0, 1.0], "beta": [0.0, 1.0]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(mul0_input0, mul0_input1, mul1_input0, add_y, gamma, beta):
    f = np.float64
    m = mul0_input0.astype(f) * mul0_input1.astype(f) * mul1_input0.astype(f).reshape(-1)[0]
    mean = m.mean(axis=-1, keepdims=True)
    var = ((m - mean) ** 2).mean(axis=-1, keepdims=True)
    r = gamma.astype(f) / np.sqrt(var + add_y.astype(f).reshape(-1)[0])
    return beta.astype(f) - r * mean + r * m


OUT_OF_SCOPE = None
