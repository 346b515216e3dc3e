"""CircularPadGrad (cann-ops src/conversion/circular_pad_grad): the gradient of CircularPad: x is the gradient of the padded tensor; every padded position o of the last 2 (4 paddings) or 3 (6 paddings) dims adds into y at (o - before) mod n, n = the padded size minus both pads. No InferShape and the size follows the paddings' values: cases use one value for every entry and state output_shapes. The project ships no data generator; cases mirror CircularPad's."""
import numpy as np
from _shared import BF16_TOLERANCE, pad_grad, circular
PATH = "src/conversion/circular_pad_grad"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "2d_1x1x4x4_p1", "shapes": {"x": [1, 1, 4, 4], "paddings": [4]}, "attrs": {}, "ranges": {"paddings": [1, 1]},
     "output_shapes": {"y": [1, 1, 2, 2]}},
    {"name": "2d_3x26x50_p5", "shapes": {"x": [3, 26, 50], "paddings": [4]}, "attrs": {}, "ranges": {"paddings": [5, 5]},
     "output_shapes": {"y": [3, 16, 40]}},
    {"name": "3d_2x10x11x13_p2", "shapes": {"x": [2, 10, 11, 13], "paddings": [6]}, "attrs": {}, "ranges": {"paddings": [2, 2]},
     "output_shapes": {"y": [2, 6, 7, 9]}},
]
TOLERANCE = BF16_TOLERANCE


def golden(x, paddings):
    return pad_grad(x, paddings, None, circular)


OUT_OF_SCOPE = None
