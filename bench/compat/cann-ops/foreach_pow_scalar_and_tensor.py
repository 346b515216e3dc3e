"""ForeachPowScalarAndTensor (cann-ops src/foreach/foreach_pow_scalar_and_tensor): y[i] = scalar ** x[i] (the scalar is the base). Cases: examples/AclNNInvocationNaive/gen_data.py (two [8, 2048] tensors) plus ragged and mixed lists."""
import numpy as np
PATH = "src/foreach/foreach_pow_scalar_and_tensor"
SOCS = ["Ascend910B1"]
CASES = [
    {'name': 'example', 'shapes': {'x': [[8, 2048], [8, 2048]], 'scalar': [1]}, 'attrs': {}, 'ranges': {'x': [0.0, 3.0], 'scalar': [1.9, 2.1]}, 'output_shapes': {'y': [[8, 2048], [8, 2048]]}},
    {'name': 'ragged', 'shapes': {'x': [[6], [3]], 'scalar': [1]}, 'attrs': {}, 'ranges': {'x': [0.0, 3.0], 'scalar': [1.9, 2.1]}, 'output_shapes': {'y': [[6], [3]]}},
    {'name': 'mixed', 'shapes': {'x': [[1], [255], [16, 17], [3, 5, 7], [4096]], 'scalar': [1]}, 'attrs': {}, 'ranges': {'x': [0.0, 3.0], 'scalar': [1.9, 2.1]}, 'output_shapes': {'y': [[1], [255], [16, 17], [3, 5, 7], [4096]]}},
]
TOLERANCE = {"float32": {"rtol": 1e-4, "atol": 1e-4, "error_ratio": 1e-4},
             "float16": {"rtol": 1e-3, "atol": 1e-3, "error_ratio": 1e-3},
             "bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(scalar, x):
    s = scalar.reshape(-1)[0]
    if np.issubdtype(x[0].dtype, np.integer):
        return [(np.int64(s) ** t.astype(np.int64)).astype(x[0].dtype) for t in x]
    return [np.float32(s) ** t.astype(np.float32) for t in x]


OUT_OF_SCOPE = None
