"""IsFinite (cann-ops src/math/is_finite): y = (x is not inf and not NaN) as bool. The example's inputs are [1, inf, -inf, nan, 0]; uniform case ranges cannot make inf or NaN, so the cases cover finite values only (the ragged one near fp16's largest value)."""
import numpy as np
PATH = "src/math/is_finite"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_5", "shapes": {"x": [5]}, "attrs": {}, "ranges": {}},
    {"name": "rows", "shapes": {"x": [32, 1024]}, "attrs": {}, "ranges": {"x": [-100.0, 100.0]}},
    {"name": "ragged_large", "shapes": {"x": [3, 71]}, "attrs": {}, "ranges": {"x": [-65000.0, 65000.0]}},
]


def golden(x):
    return np.isfinite(x.astype(np.float32))


OUT_OF_SCOPE = None
