"""SubCustom (AscendProjects operator/SubCustomSample): z = x - y, float16.
Cases from AclOfflineModel/scripts/gen_data.py: [1, 999] of integers in [0, 100) (a length that
is not a whole 32-byte block), and its commented-out [8, 2048] in [-100, 100]."""
import numpy as np

PATH = "operator/SubCustomSample/FrameworkLaunch/SubCustom"
CASES = [
    {"name": "gen_data_ragged", "shapes": {"x": [1, 999], "y": [1, 999]},
     "ranges": {"x": [0, 100], "y": [0, 100]}},
    {"name": "gen_data_2048", "shapes": {"x": [8, 2048], "y": [8, 2048]},
     "ranges": {"x": [-100, 100], "y": [-100, 100]}},
]


def golden(x, y):
    return x.astype(np.float64) - y


OUT_OF_SCOPE = None
