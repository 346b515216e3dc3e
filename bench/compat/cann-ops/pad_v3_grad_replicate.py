"""PadV3GradReplicate (cann-ops src/conversion/pad_v3_grad_replicate): the gradient of padding the last 2 dims of a 4-D tensor: x is the gradient of the padded tensor, and each padded position o adds into y at clip(o - before, 0, n - 1) (edge replication), n = the padded size minus both pads. paddings is an int tensor of (before, after) pairs for every dim in dim order; the kernel reads the pairs of the last 2 dims. The output size follows the paddings' values, so cases give them exactly (the leading dims' pairs 0, as the operator's InferShape needs them for the unpadded leading dims the kernel assumes) and state output_shapes. Cases from examples gen_data.py (replication_pad2d backward, x [1, 1, 4, 4] -> [1, 1, 2, 2], pad 1) plus a larger one."""
import numpy as np
from _shared import BF16_TOLERANCE, pad_grad, edge
PATH = "src/conversion/pad_v3_grad_replicate"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_p1", "shapes": {"x": [1, 1, 4, 4], "paddings": [8]}, "attrs": {"mode": "edge", "paddings_contiguous": True}, "ranges": {"x": [0.0, 5.0]}, "values": {"paddings": [0, 0, 0, 0, 1, 1, 1, 1]},
     "output_shapes": {"y": [1, 1, 2, 2]}},
    {"name": "larger_p3", "shapes": {"x": [2, 3, 40, 70], "paddings": [8]}, "attrs": {"mode": "edge", "paddings_contiguous": True}, "ranges": {"x": [-5.0, 5.0]}, "values": {"paddings": [0, 0, 0, 0, 3, 3, 3, 3]},
     "output_shapes": {"y": [2, 3, 34, 64]}},
]
TOLERANCE = BF16_TOLERANCE


def golden(x, paddings, *, mode="edge", paddings_contiguous=True):
    return pad_grad(x, paddings, 2, edge)


OUT_OF_SCOPE = None
