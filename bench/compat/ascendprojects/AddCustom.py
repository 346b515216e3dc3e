"""AddCustom (AscendProjects operator/AddCustomSample): z = x + y, float16.
Cases from AclNNInvocation/scripts/gen_data.py ([8, 2048], values in [1, 100]) plus a single
element and a length that is not a whole 32-byte block."""
import numpy as np

PATH = "operator/AddCustomSample/FrameworkLaunch/AddCustom"
CASES = [
    {"name": "gen_data", "shapes": {"x": [8, 2048], "y": [8, 2048]},
     "ranges": {"x": [1, 100], "y": [1, 100]}},
    {"name": "one", "shapes": {"x": [1], "y": [1]}},
    {"name": "ragged", "shapes": {"x": [1, 999], "y": [1, 999]}},
]


def golden(x, y):
    return x.astype(np.float64) + y


OUT_OF_SCOPE = None
