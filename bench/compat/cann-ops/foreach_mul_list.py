"""ForeachMulList (cann-ops src/foreach/foreach_mul_list): y[i] = x1[i] * x2[i]. Cases: examples/AclNNInvocationNaive/gen_data.py (two [8, 2048] tensors) plus ragged and mixed lists."""
import numpy as np
PATH = "src/foreach/foreach_mul_list"
SOCS = ["Ascend910B1"]
CASES = [
    {'name': 'example', 'shapes': {'x1': [[8, 2048], [8, 2048]], 'x2': [[8, 2048], [8, 2048]]}, 'attrs': {}, 'ranges': {'x1': [-10.0, 10.0], 'x2': [-10.0, 10.0]}, 'output_shapes': {'y': [[8, 2048], [8, 2048]]}},
    {'name': 'ragged', 'shapes': {'x1': [[6], [3]], 'x2': [[6], [3]]}, 'attrs': {}, 'ranges': {'x1': [-10.0, 10.0], 'x2': [-10.0, 10.0]}, 'output_shapes': {'y': [[6], [3]]}},
    {'name': 'mixed', 'shapes': {'x1': [[1], [255], [16, 17], [3, 5, 7], [4096]], 'x2': [[1], [255], [16, 17], [3, 5, 7], [4096]]}, 'attrs': {}, 'ranges': {'x1': [-10.0, 10.0], 'x2': [-10.0, 10.0]}, 'output_shapes': {'y': [[1], [255], [16, 17], [3, 5, 7], [4096]]}},
]
TOLERANCE = {"float32": {"rtol": 1e-4, "atol": 1e-4, "error_ratio": 1e-4},
             "float16": {"rtol": 1e-3, "atol": 1e-3, "error_ratio": 1e-3},
             "bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def _up(t):
    """Integer tensors stay integer; floating ones (fp16, bf16, fp32) compute in fp32."""
    return t if np.issubdtype(t.dtype, np.integer) else t.astype(np.float32)


def golden(x1, x2):
    return [_up(p) * _up(q) for p, q in zip(x1, x2)]


OUT_OF_SCOPE = None
