"""ScatterMax (cann-ops src/math/scatter_max): in place, var[indices[i], ...] = max(var[indices[i], ...], updates[i, ...]) (duplicates: the largest wins). No output in the OpDef: the expected values are var's after the run (INPLACE). Cases from examples gen_data.py (var [256], 5 indices in [0, 200), values in [-10, 10]) plus rows of a 2-D var."""
import numpy as np
PATH = "src/math/scatter_max"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_256", "shapes": {"var": [256], "indices": [5], "updates": [5]}, "attrs": {},
     "ranges": {"var": [-10.0, 10.0], "indices": [0, 199], "updates": [-10.0, 10.0]}},
    {"name": "rows_64x33", "shapes": {"var": [64, 33], "indices": [20], "updates": [20, 33]}, "attrs": {},
     "ranges": {"var": [-10.0, 10.0], "indices": [0, 63], "updates": [-10.0, 10.0]}},
]
INPLACE = ["var"]


def golden(var, indices, updates, *, use_locking=False):
    out = var.copy()
    np.maximum.at(out, indices.reshape(-1).astype(np.int64), updates.reshape((-1,) + var.shape[1:]))
    return (out,)


OUT_OF_SCOPE = None
