"""AddCustom (AscendProjects operator/AddCustomSample): z = x + y, float16.
Cases from AclNNInvocation/scripts/gen_data.py ([8, 2048], values in [1, 100]) and the
[8, 2048] in [-100, 100] of AclOfflineModel/scripts/gen_data.py. The sample's tiling assumes
whole 32-byte blocks per core (no ragged shape is in its generators), so none is added."""
import numpy as np

PATH = "operator/AddCustomSample/FrameworkLaunch/AddCustom"
CASES = [
    {"name": "gen_data", "shapes": {"x": [8, 2048], "y": [8, 2048]},
     "ranges": {"x": [1, 100], "y": [1, 100]}},
    {"name": "offline_model", "shapes": {"x": [8, 2048], "y": [8, 2048]},
     "ranges": {"x": [-100, 100], "y": [-100, 100]}},
]


def golden(x, y):
    return x.astype(np.float64) + y


OUT_OF_SCOPE = None
