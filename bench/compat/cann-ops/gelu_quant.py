"""GeluQuant (cann-ops src/activation/gelu_quant): v = GELU(x) (approximate "none": erf form, "tanh": x / (1 + exp(-1.5957691 (x + 0.044715 x**3)))), times input_scale and plus input_offset when given (per last-axis element); quant_mode "dynamic": out_scale = max|v| / 127 per row and y = round(v / out_scale); "static": y = round(v) with input_scale/offset as the quantisation; y clamped to int8. Cases after examples gen_data.py in dynamic mode (both outputs defined), both GELU forms, without the optional scale and with it."""
import numpy as np
from _shared import gelu_erf
PATH = "src/activation/gelu_quant"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "dynamic_erf_16x256", "shapes": {"x": [16, 256]}, "attrs": {"approximate": "none", "quant_mode": "dynamic"}, "ranges": {"x": [-4.0, 4.0]}},
    {"name": "dynamic_tanh_scaled_8x1000", "shapes": {"x": [8, 1000], "input_scale": [1000]}, "attrs": {"approximate": "tanh", "quant_mode": "dynamic"},
     "ranges": {"x": [-4.0, 4.0], "input_scale": [0.5, 2.0]}},
]
TOLERANCE = {"int8": {"rtol": 0.0, "atol": 1.0, "error_ratio": 1e-3},
             "float32": {"rtol": 1e-4, "atol": 1e-4, "error_ratio": 1e-4}}


def golden(x, input_scale, input_offset, *, approximate="none", quant_mode="dynamic"):
    a = x.astype(np.float64)
    if approximate == "tanh":
        v = a / (1.0 + np.exp(-1.5957691216057308 * (a + 0.044715 * a ** 3)))
    else:
        v = gelu_erf(a)
    if input_scale is not None:
        v = v * input_scale.astype(np.float64)
    if input_offset is not None:
        v = v + input_offset.astype(np.float64)
    rows = v.reshape(-1, v.shape[-1])
    if quant_mode == "dynamic":
        scale = np.abs(rows).max(axis=-1) / 127.0
        rows = rows / np.where(scale == 0, 1.0, scale)[:, None]
    else:
        scale = np.zeros(rows.shape[0])
    y = np.round(np.clip(rows, -128, 127)).astype(np.int8)
    return y.reshape(x.shape), scale.reshape(x.shape[:-1])


OUT_OF_SCOPE = None
