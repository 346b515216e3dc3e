"""ForeachLerpScalar (cann-ops src/foreach/foreach_lerp_scalar): y[i] = x1[i] + weight * (x2[i] - x1[i]), weight a one-element fp32 tensor. Cases: examples/AclNNInvocationNaive/gen_data.py (two [8, 2048] tensors) plus ragged and mixed lists."""
import numpy as np
PATH = "src/foreach/foreach_lerp_scalar"
SOCS = ["Ascend910B1"]
CASES = [
    {'name': 'example', 'shapes': {'x1': [[8, 2048], [8, 2048]], 'x2': [[8, 2048], [8, 2048]], 'weight': [1]}, 'attrs': {}, 'ranges': {'weight': [0.285, 0.315]}, 'output_shapes': {'y': [[8, 2048], [8, 2048]]}},
    {'name': 'ragged', 'shapes': {'x1': [[6], [3]], 'x2': [[6], [3]], 'weight': [1]}, 'attrs': {}, 'ranges': {'weight': [0.285, 0.315]}, 'output_shapes': {'y': [[6], [3]]}},
    {'name': 'mixed', 'shapes': {'x1': [[1], [255], [16, 17], [3, 5, 7], [4096]], 'x2': [[1], [255], [16, 17], [3, 5, 7], [4096]], 'weight': [1]}, 'attrs': {}, 'ranges': {'weight': [0.285, 0.315]}, 'output_shapes': {'y': [[1], [255], [16, 17], [3, 5, 7], [4096]]}},
]
TOLERANCE = {"float32": {"rtol": 1e-4, "atol": 1e-4, "error_ratio": 1e-4},
             "float16": {"rtol": 1e-3, "atol": 1e-3, "error_ratio": 1e-3},
             "bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(x1, x2, weight):
    w = np.float32(weight.reshape(-1)[0])
    return [p.astype(np.float32) + w * (q.astype(np.float32) - p.astype(np.float32)) for p, q in zip(x1, x2)]


OUT_OF_SCOPE = None
