"""Reshape (cann-ops src/math/reshape): y = x with the dims [axis, axis + num_axes) (num_axes -1: to the end) replaced by the values of the `shape` tensor; the data is unchanged. The output shape comes from shape's values, so cases fix them through equal range bounds (every entry the same) and state output_shapes. Cases after examples gen_data.py ([8, 47, 123, 1023] -> [123, 47, 8, 1023], axis 0), kept small."""
import numpy as np
PATH = "src/math/reshape"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "flatten", "shapes": {"x": [8, 47, 13], "shape": [1]}, "attrs": {}, "ranges": {"x": [-5, 5], "shape": [4888, 4888]},
     "output_shapes": {"y": [4888]}},
    {"name": "square", "shapes": {"x": [16, 256], "shape": [2]}, "attrs": {}, "ranges": {"x": [-5, 5], "shape": [64, 64]},
     "output_shapes": {"y": [64, 64]}},
    {"name": "middle_axes", "shapes": {"x": [3, 4, 16, 5], "shape": [2]}, "attrs": {"axis": 1, "num_axes": 2}, "ranges": {"x": [-5, 5], "shape": [8, 8]},
     "output_shapes": {"y": [3, 8, 8, 5]}},
]


def golden(x, shape, *, axis=0, num_axes=-1):
    end = x.ndim if num_axes == -1 else axis + num_axes
    return x.reshape(list(x.shape[:axis]) + [int(s) for s in shape.reshape(-1)] + list(x.shape[end:])).copy()


OUT_OF_SCOPE = None
