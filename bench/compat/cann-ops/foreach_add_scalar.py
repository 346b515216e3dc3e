"""ForeachAddScalar (cann-ops src/foreach/foreach_add_scalar): y[i] = x[i] + scalar, the scalar a one-element tensor. Cases: examples/AclNNInvocationNaive/gen_data.py (two [8, 2048] tensors) plus ragged and mixed lists."""
import numpy as np
PATH = "src/foreach/foreach_add_scalar"
SOCS = ["Ascend910B1"]
CASES = [
    {'name': 'example', 'shapes': {'x': [[8, 2048], [8, 2048]], 'scalar': [1]}, 'attrs': {}, 'ranges': {'x': [-1.0, 1.0], 'scalar': [1.14, 1.26]}, 'output_shapes': {'y': [[8, 2048], [8, 2048]]}},
    {'name': 'ragged', 'shapes': {'x': [[6], [3]], 'scalar': [1]}, 'attrs': {}, 'ranges': {'x': [-1.0, 1.0], 'scalar': [1.14, 1.26]}, 'output_shapes': {'y': [[6], [3]]}},
    {'name': 'mixed', 'shapes': {'x': [[1], [255], [16, 17], [3, 5, 7], [4096]], 'scalar': [1]}, 'attrs': {}, 'ranges': {'x': [-1.0, 1.0], 'scalar': [1.14, 1.26]}, 'output_shapes': {'y': [[1], [255], [16, 17], [3, 5, 7], [4096]]}},
]
TOLERANCE = {"float32": {"rtol": 1e-4, "atol": 1e-4, "error_ratio": 1e-4},
             "float16": {"rtol": 1e-3, "atol": 1e-3, "error_ratio": 1e-3},
             "bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def _up(t):
    """Integer tensors stay integer; floating ones (fp16, bf16, fp32) compute in fp32."""
    return t if np.issubdtype(t.dtype, np.integer) else t.astype(np.float32)


def golden(x, scalar):
    s = scalar.reshape(-1)[0]
    s = s if np.issubdtype(scalar.dtype, np.integer) else np.float32(s)
    return [_up(t) + s for t in x]


OUT_OF_SCOPE = None
