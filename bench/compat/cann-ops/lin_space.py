"""LinSpace (cann-ops src/math/lin_space): output = num evenly spaced values from start to stop inclusive (torch.linspace); start and stop fp32 scalars, num an int64 scalar. No InferShape: cases state output_shapes [num]. Cases from examples gen_data.py (0 .. 1, 8 steps) plus a longer decreasing one and a single step."""
import numpy as np
PATH = "src/math/lin_space"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_8", "shapes": {"start": [1], "stop": [1], "num": [1]}, "attrs": {},
     "ranges": {"start": [-0.01, 0.01], "stop": [0.95, 1.05], "num": [8, 8]}, "output_shapes": {"output": [8]}},
    {"name": "down_1000", "shapes": {"start": [1], "stop": [1], "num": [1]}, "attrs": {},
     "ranges": {"start": [4.75, 5.25], "stop": [-3.15, -2.85], "num": [1000, 1000]}, "output_shapes": {"output": [1000]}},
    {"name": "one", "shapes": {"start": [1], "stop": [1], "num": [1]}, "attrs": {},
     "ranges": {"start": [2.375, 2.625], "stop": [6.65, 7.35], "num": [1, 1]}, "output_shapes": {"output": [1]}},
]


def golden(start, stop, num):
    return np.linspace(float(start.reshape(-1)[0]), float(stop.reshape(-1)[0]), int(num.reshape(-1)[0]))


OUT_OF_SCOPE = None
