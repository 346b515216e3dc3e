"""ForeachAddcdivScalarList (cann-ops src/foreach/foreach_addcdiv_scalar_list): y[i] = x1[i] + scalars[i] (a tensor of one value per list entry) * x2[i] / x3[i]. Cases: examples gen_data.py ([6] and [3] tensors, one scalar per tensor) plus [8, 2048] and mixed lists."""
import numpy as np
PATH = "src/foreach/foreach_addcdiv_scalar_list"
SOCS = ["Ascend910B1"]
CASES = [
    {'name': 'example', 'shapes': {'x1': [[8, 2048], [8, 2048]], 'x2': [[8, 2048], [8, 2048]], 'x3': [[8, 2048], [8, 2048]], 'scalars': [2]}, 'attrs': {}, 'ranges': {'x3': [0.5, 2.0], 'scalars': [0.5, 2.5]}, 'output_shapes': {'y': [[8, 2048], [8, 2048]]}},
    {'name': 'ragged', 'shapes': {'x1': [[6], [3]], 'x2': [[6], [3]], 'x3': [[6], [3]], 'scalars': [2]}, 'attrs': {}, 'ranges': {'x3': [0.5, 2.0], 'scalars': [0.5, 2.5]}, 'output_shapes': {'y': [[6], [3]]}},
    {'name': 'mixed', 'shapes': {'x1': [[1], [255], [16, 17], [3, 5, 7], [4096]], 'x2': [[1], [255], [16, 17], [3, 5, 7], [4096]], 'x3': [[1], [255], [16, 17], [3, 5, 7], [4096]], 'scalars': [5]}, 'attrs': {}, 'ranges': {'x3': [0.5, 2.0], 'scalars': [0.5, 2.5]}, 'output_shapes': {'y': [[1], [255], [16, 17], [3, 5, 7], [4096]]}},
]
TOLERANCE = {"float32": {"rtol": 1e-4, "atol": 1e-4, "error_ratio": 1e-4},
             "float16": {"rtol": 1e-3, "atol": 1e-3, "error_ratio": 1e-3},
             "bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(x1, x2, x3, scalars):
    ss = list(scalars.reshape(-1))
    return [a.astype(np.float32) + np.float32(s) * (b.astype(np.float32) / c.astype(np.float32)) for a, b, c, s in zip(x1, x2, x3, ss)]


OUT_OF_SCOPE = None
