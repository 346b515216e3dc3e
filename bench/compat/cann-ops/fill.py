"""Fill (cann-ops src/math/fill): y = a tensor of the shape held in the int64 tensor dims, every element value[0]. The output shape comes from dims' values, so cases fix them through equal range bounds and state output_shapes. Cases after tests/st/Fill_case_alltype.json and examples gen_data.py (dims [5, 9, 8, 1], value 3)."""
import numpy as np
PATH = "src/math/fill"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "dims_1d", "shapes": {"dims": [1], "value": [1]}, "attrs": {}, "ranges": {"dims": [4099, 4099], "value": [3, 3]},
     "output_shapes": {"y": [4099]}},
    {"name": "dims_2d", "shapes": {"dims": [2], "value": [1]}, "attrs": {}, "ranges": {"dims": [24, 24], "value": [1, 1]},
     "output_shapes": {"y": [24, 24]}},
    {"name": "dims_4d", "shapes": {"dims": [4], "value": [1]}, "attrs": {}, "ranges": {"dims": [5, 5], "value": [3, 3]},
     "output_shapes": {"y": [5, 5, 5, 5]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(dims, value):
    return np.full([int(d) for d in dims.reshape(-1)], value.reshape(-1)[0])


OUT_OF_SCOPE = None
