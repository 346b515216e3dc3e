"""ForeachDivList (cann-ops src/foreach/foreach_div_list): y[i] = x1[i] / x2[i] (divisors kept away from 0). Cases: examples/AclNNInvocationNaive/gen_data.py (two [8, 2048] tensors) plus ragged and mixed lists."""
import numpy as np
PATH = "src/foreach/foreach_div_list"
SOCS = ["Ascend910B1"]
CASES = [
    {'name': 'example', 'shapes': {'x1': [[8, 2048], [8, 2048]], 'x2': [[8, 2048], [8, 2048]]}, 'attrs': {}, 'ranges': {'x2': [0.5, 2.0]}, 'output_shapes': {'y': [[8, 2048], [8, 2048]]}},
    {'name': 'ragged', 'shapes': {'x1': [[6], [3]], 'x2': [[6], [3]]}, 'attrs': {}, 'ranges': {'x2': [0.5, 2.0]}, 'output_shapes': {'y': [[6], [3]]}},
    {'name': 'mixed', 'shapes': {'x1': [[1], [255], [16, 17], [3, 5, 7], [4096]], 'x2': [[1], [255], [16, 17], [3, 5, 7], [4096]]}, 'attrs': {}, 'ranges': {'x2': [0.5, 2.0]}, 'output_shapes': {'y': [[1], [255], [16, 17], [3, 5, 7], [4096]]}},
]
TOLERANCE = {"float32": {"rtol": 1e-4, "atol": 1e-4, "error_ratio": 1e-4},
             "float16": {"rtol": 1e-3, "atol": 1e-3, "error_ratio": 1e-3},
             "bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(x1, x2):
    return [p.astype(np.float32) / q.astype(np.float32) for p, q in zip(x1, x2)]


OUT_OF_SCOPE = None
