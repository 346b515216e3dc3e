"""ScatterSub (cann-ops src/math/scatter_sub): in place, var[indices[i], ...] -= updates[i, ...] (duplicates accumulate, each step rounded to var's dtype as the kernel's Sub rounds; int8 wraps). No output in the OpDef: the expected values are var's after the run (INPLACE). Cases from tests/st/ScatterSub_case_all_type.json and examples gen_data.py (var and updates [3, 4, 24, 24] in [-5, 5], 3 indices in [0, 2]) plus a 1-D one."""
import numpy as np
PATH = "src/math/scatter_sub"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_3x4x24x24", "shapes": {"var": [3, 4, 24, 24], "indices": [3], "updates": [3, 4, 24, 24]}, "attrs": {"use_locking": False},
     "ranges": {"var": [-5.0, 5.0], "indices": [0, 2], "updates": [-5.0, 5.0]}},
    {"name": "flat_100", "shapes": {"var": [100], "indices": [7], "updates": [7]}, "attrs": {},
     "ranges": {"var": [-5.0, 5.0], "indices": [0, 99], "updates": [-5.0, 5.0]}},
]
INPLACE = ["var"]


def golden(var, indices, updates, *, use_locking=False):
    idx = indices.reshape(-1).astype(np.int64)
    upd = updates.reshape((-1,) + var.shape[1:])
    if np.issubdtype(var.dtype, np.integer):
        out = var.astype(np.int64)
        np.subtract.at(out, idx, upd.astype(np.int64))
        return (out.astype(var.dtype),)
    # one index after another, each difference rounded to var's dtype, as the kernel's Sub on
    # var's dtype does (a duplicate index subtracts from the rounded result)
    out = var.copy()
    for i, k in enumerate(idx):
        out[k] = (out[k].astype(np.float32) - upd[i].astype(np.float32)).astype(var.dtype)
    return (out,)


OUT_OF_SCOPE = None
