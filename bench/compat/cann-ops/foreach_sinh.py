"""ForeachSinh (cann-ops src/foreach/foreach_sinh): y[i] = sinh(x) for every tensor x[i] of the list. Cases: examples/AclNNInvocationNaive/gen_data.py (two [8, 2048] tensors) plus ragged and mixed lists."""
import numpy as np
PATH = "src/foreach/foreach_sinh"
SOCS = ["Ascend910B1"]
CASES = [
    {'name': 'example', 'shapes': {'x': [[8, 2048], [8, 2048]]}, 'attrs': {}, 'ranges': {'x': [-3.0, 3.0]}, 'output_shapes': {'y': [[8, 2048], [8, 2048]]}},
    {'name': 'ragged', 'shapes': {'x': [[6], [3]]}, 'attrs': {}, 'ranges': {'x': [-3.0, 3.0]}, 'output_shapes': {'y': [[6], [3]]}},
    {'name': 'mixed', 'shapes': {'x': [[1], [255], [16, 17], [3, 5, 7], [4096]]}, 'attrs': {}, 'ranges': {'x': [-3.0, 3.0]}, 'output_shapes': {'y': [[1], [255], [16, 17], [3, 5, 7], [4096]]}},
]
TOLERANCE = {"float32": {"rtol": 1e-4, "atol": 1e-4, "error_ratio": 1e-4},
             "float16": {"rtol": 1e-3, "atol": 1e-3, "error_ratio": 1e-3},
             "bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(x):
    out = []
    for t in x:
        v = t.astype(np.float32)
        out.append(np.sinh(v))
    return out


OUT_OF_SCOPE = None
