"""Muls (cann-ops src/math/muls): y = x * value, value a one-element fp32 tensor (complex64 x: both parts scaled). Cases from tests/st/Muls_case.json ([125, 125], [3, 30, 100], [3, 30, 100, 16]; value 3.0; the 5-D st shape is 2.4M elements, left out) and examples gen_data.py ([7, 1], x in [1, 10]). value exactly 3.0 throughout (`values`, as the st cases give it): integral, so integer variants have one answer (the kernel rounds float(x) * value back to the integer type)."""
import numpy as np
PATH = "src/math/muls"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_125x125", "shapes": {"x": [125, 125], "value": [1]}, "attrs": {}, "ranges": {"x": [-10.0, 10.0]}, "values": {"value": [3.0]}},
    {"name": "st_3x30x100", "shapes": {"x": [3, 30, 100], "value": [1]}, "attrs": {}, "ranges": {"x": [-10.0, 10.0]}, "values": {"value": [3.0]}},
    {"name": "st_3x30x100x16", "shapes": {"x": [3, 30, 100, 16], "value": [1]}, "attrs": {}, "ranges": {"x": [-10.0, 10.0]}, "values": {"value": [3.0]}},
    {"name": "gen_7x1", "shapes": {"x": [7, 1], "value": [1]}, "attrs": {}, "ranges": {"x": [1.0, 10.0]}, "values": {"value": [3.0]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(x, value):
    v = value.reshape(-1)[0]
    if np.issubdtype(x.dtype, np.integer):
        return (x.astype(np.int64) * int(v)).astype(x.dtype)
    if np.iscomplexobj(x):
        return x * np.float32(v)
    return x.astype(np.float32) * np.float32(v)


OUT_OF_SCOPE = None
