"""ReflectionPad3dGrad (cann-ops src/conversion/reflection_pad3d_grad): the gradient of padding the last 3 dims of a 5-D tensor: x is the gradient of the padded tensor, and each padded position o adds into y at its reflection (-i below 0, 2 (n - 1) - i above n - 1, the edge not repeated), n = the padded size minus both pads. paddings is an int tensor of (before, after) pairs for every dim in dim order; the kernel reads the pairs of the last 3 dims. The output size follows the paddings' values, so cases use one value for every entry (equal range bounds) and state output_shapes (the leading dims unpadded, as the kernel treats them). Cases from examples gen_data.py (reflection_pad3d backward, x [1, 1, 4, 4, 4] -> [1, 1, 2, 2, 2], pad 1) plus a larger one."""
import numpy as np
from _shared import BF16_TOLERANCE, pad_grad, reflect
PATH = "src/conversion/reflection_pad3d_grad"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_p1", "shapes": {"x": [1, 1, 4, 4, 4], "paddings": [10]}, "attrs": {}, "ranges": {"x": [0.0, 5.0], "paddings": [1, 1]},
     "output_shapes": {"y": [1, 1, 2, 2, 2]}},
    {"name": "larger_p2", "shapes": {"x": [1, 2, 12, 20, 36], "paddings": [10]}, "attrs": {}, "ranges": {"x": [-5.0, 5.0], "paddings": [2, 2]},
     "output_shapes": {"y": [1, 2, 8, 16, 32]}},
]
TOLERANCE = BF16_TOLERANCE


def golden(x, paddings):
    return pad_grad(x, paddings, 3, reflect)


OUT_OF_SCOPE = None
