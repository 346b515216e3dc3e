"""PreLayerNorm (cann-ops src/math/pre_layer_norm): res_out = layer_norm(x + y) over the last axis, times gamma plus beta, (v - mean) / sqrt(var + epsilon). Cases after tests/st/PreLayerNorm_case_all_type.json and examples gen_data.py (case1 [4980, 4, 2048] eps 1e-5; case2 [512, 4, 20480] eps 1e-7; normal values), cut to [16, 4, 2048] and [2, 4, 20480] to stay under a million elements."""
import numpy as np
PATH = "src/math/pre_layer_norm"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "case1_16x4x2048", "shapes": {"x": [16, 4, 2048], "y": [16, 4, 2048], "gamma": [2048], "beta": [2048]},
     "attrs": {"epsilon": 1e-5}, "ranges": {"x": [-2.0, 2.0], "y": [-2.0, 2.0], "gamma": [-2.0, 2.0], "beta": [-2.0, 2.0]}},
    {"name": "case2_2x4x20480", "shapes": {"x": [2, 4, 20480], "y": [2, 4, 20480], "gamma": [20480], "beta": [20480]},
     "attrs": {"epsilon": 1e-7}, "ranges": {"x": [-2.0, 2.0], "y": [-2.0, 2.0], "gamma": [-2.0, 2.0], "beta": [-2.0, 2.0]}},
    {"name": "st_values", "shapes": {"x": [8, 4, 2048], "y": [8, 4, 2048], "gamma": [2048], "beta": [2048]},
     "attrs": {"epsilon": 1e-5}, "ranges": {"x": [0.1, 1.0], "y": [0.1, 1.0], "gamma": [0.1, 1.0], "beta": [0.1, 1.0]}},
]


def golden(x, y, gamma, beta, *, epsilon):
    v = x.astype(np.float64) + y.astype(np.float64)
    mean = v.mean(axis=-1, keepdims=True)
    var = ((v - mean) ** 2).mean(axis=-1, keepdims=True)
    return (v - mean) / np.sqrt(var + epsilon) * gamma.astype(np.float64) + beta.astype(np.float64)


OUT_OF_SCOPE = None
