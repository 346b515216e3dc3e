"""Heaviside (cann-ops src/math/heaviside): out = 0 where input < 0, values where input == 0, 1 where input > 0. Cases from examples gen_data.py ([517, 517] in [-100, 100]; its 20 % zeros come here from a case of inputs within 1e-9 of zero, which are zeros in fp16) plus a small one."""
import numpy as np
PATH = "src/math/heaviside"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_517x517", "shapes": {"input": [517, 517], "values": [517, 517]}, "attrs": {}, "ranges": {"input": [-100.0, 100.0], "values": [-100.0, 100.0]}},
    {"name": "zeros_take_values", "shapes": {"input": [4, 100], "values": [4, 100]}, "attrs": {}, "ranges": {"input": [-1e-9, 1e-9], "values": [-100.0, 100.0]}},
    {"name": "small", "shapes": {"input": [13], "values": [13]}, "attrs": {}, "ranges": {"input": [-1.0, 1.0]}},
]


def golden(input, values):
    v = input.astype(np.float32)
    return np.where(v > 0, np.float32(1.0), np.where(v < 0, np.float32(0.0), values.astype(np.float32)))


OUT_OF_SCOPE = None
