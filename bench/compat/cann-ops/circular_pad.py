"""CircularPad (cann-ops src/conversion/circular_pad): y = x padded circularly (wrap-around) on its last 2 dims (4 paddings) or last 3 (6 paddings), paddings an int64 tensor of (before, after) pairs in dim order: y[..., o] = x[..., (o - before) mod n]. The output shape follows the paddings' values, so cases use one value for every entry (equal range bounds) and state output_shapes. Cases after examples gen_data.py ([1, 1, 2, 2], pad 1) plus larger 2-D and 3-D ones."""
import numpy as np
PATH = "src/conversion/circular_pad"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_1x1x2x2_p1", "shapes": {"x": [1, 1, 2, 2], "paddings": [4]}, "attrs": {}, "ranges": {"x": [-10, 10], "paddings": [1, 1]},
     "output_shapes": {"y": [1, 1, 4, 4]}},
    {"name": "2d_3x16x40_p5", "shapes": {"x": [3, 16, 40], "paddings": [4]}, "attrs": {}, "ranges": {"x": [-10, 10], "paddings": [5, 5]},
     "output_shapes": {"y": [3, 26, 50]}},
    {"name": "3d_2x6x7x9_p2", "shapes": {"x": [2, 6, 7, 9], "paddings": [6]}, "attrs": {}, "ranges": {"x": [-10, 10], "paddings": [2, 2]},
     "output_shapes": {"y": [2, 10, 11, 13]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(x, paddings):
    p = [int(v) for v in paddings.reshape(-1)]
    k = len(p) // 2
    width = [(0, 0)] * (x.ndim - k) + [(p[2 * i], p[2 * i + 1]) for i in range(k)]
    return np.pad(x, width, mode="wrap")


OUT_OF_SCOPE = None
