"""StridedSliceAssignV2 (cann-ops src/conversion/strided_slice_assign_v2): var[begin:end:strides] = input_value, per axis (axes, optional, names the axes begin/end/strides refer to; absent: the leading ones). var is a ref tensor (the OpDef's input and output share the name). begin, end and strides are tensors whose values the cases give exactly; the tiling requires the last axis's stride to be 1 (op_host strided_slice_assign_v2.cpp, \"The stride of last dim must be 1.\"). Cases: examples gen_data.py (var [4, 3], rows 1:4:2, cols 0:2:1, input_value [2, 2]), a 3-D one and whole rows."""
import numpy as np
PATH = "src/conversion/strided_slice_assign_v2"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_4x3", "shapes": {"var": [4, 3], "input_value": [2, 2], "begin": [2], "end": [2], "strides": [2]}, "attrs": {},
     "values": {"begin": [1, 0], "end": [4, 2], "strides": [2, 1]}},
    {"name": "3d_6x6x8", "shapes": {"var": [6, 6, 8], "input_value": [2, 2, 3], "begin": [3], "end": [3], "strides": [3]}, "attrs": {},
     "values": {"begin": [0, 1, 2], "end": [6, 5, 5], "strides": [3, 2, 1]}},
    {"name": "contiguous_rows", "shapes": {"var": [64, 100], "input_value": [30, 100], "begin": [2], "end": [2], "strides": [2]}, "attrs": {},
     "values": {"begin": [10, 0], "end": [40, 100], "strides": [1, 1]}},
]


def golden(var, input_value, begin, end, strides, axes):
    out = var.copy()
    b, e, s = (t.reshape(-1).astype(np.int64) for t in (begin, end, strides))
    ax = list(range(len(b))) if axes is None else [int(a) % var.ndim for a in axes.reshape(-1)]
    idx = [slice(None)] * var.ndim
    for a, lo, hi, st in zip(ax, b, e, s):
        idx[a] = slice(int(lo), int(hi), int(st))
    out[tuple(idx)] = input_value
    return out


OUT_OF_SCOPE = None
