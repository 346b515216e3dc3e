"""Trunc (cann-ops src/math/trunc): output_y = x rounded toward zero (integers unchanged). No InferShape: output_shapes = the input's shape. Cases after examples gen_data.py ([512] in [-100, 100]) plus 2-D and ragged; non-negative ranges here, valid for the uint8 variant too."""
import numpy as np
PATH = "src/math/trunc"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_512", "shapes": {"input_x": [512]}, "attrs": {}, "ranges": {"input_x": [0.0, 100.0]}, "output_shapes": {"output_y": [512]}},
    {"name": "rows", "shapes": {"input_x": [64, 1024]}, "attrs": {}, "ranges": {"input_x": [0.0, 100.0]}, "output_shapes": {"output_y": [64, 1024]}},
    {"name": "ragged", "shapes": {"input_x": [3, 333]}, "attrs": {}, "ranges": {"input_x": [0.0, 100.0]}, "output_shapes": {"output_y": [3, 333]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(input_x):
    if np.issubdtype(input_x.dtype, np.integer):
        return input_x.copy()
    return np.trunc(input_x.astype(np.float32))


OUT_OF_SCOPE = None
