"""LeakyReluCustom (AscendProjects operator/LeakyReluCustomSample): y = x if x > 0 else
x * negative_slope, float32. Case from AclNNInvocation/scripts/gen_data.py ([8, 200, 1024] in
[-100, 100], negative_slope 0.0) plus a non-zero slope on fewer rows (the generator has no
ragged shape, and the sample's tiling assumes whole blocks)."""
import numpy as np

PATH = "operator/LeakyReluCustomSample/FrameworkLaunch/LeakyReluCustom"
CASES = [
    {"name": "gen_data", "shapes": {"x": [8, 200, 1024]}, "attrs": {"negative_slope": 0.0},
     "ranges": {"x": [-100, 100]}},
    {"name": "slope", "shapes": {"x": [8, 1024]}, "attrs": {"negative_slope": 0.1}},
]


def golden(x, *, negative_slope):
    x = x.astype(np.float64)
    return np.where(x > 0, x, x * negative_slope)


OUT_OF_SCOPE = None
