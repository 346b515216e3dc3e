"""ForeachNonFiniteCheckAndUnscale (cann-ops src/foreach/foreach_non_finite_check_and_unscale): in place, scaled_grads[i] *= inv_scale, and found_inf (a one-element fp32 tensor) becomes 1.0 when any gradient holds an inf or NaN (else keeps its value). No output in the OpDef: the expected values are those of the in-place inputs (INPLACE). Cases: the op's gen_data.py shapes ([8, 2048] x 2), ragged and mixed lists; inputs are finite here (random data), found_inf starts at 0."""
import numpy as np
from _shared import FOREACH_TOLERANCE, FOREACH_LISTS
PATH = "src/foreach/foreach_non_finite_check_and_unscale"
SOCS = ["Ascend910B1"]
CASES = [{"name": n, "shapes": {"scaled_grads": s, "found_inf": [1], "inv_scale": [1]}, "attrs": {},
          "ranges": {"found_inf": [-0.01, 0.01], "inv_scale": [0.475, 0.525]}} for n, s in FOREACH_LISTS.items()]
TOLERANCE = FOREACH_TOLERANCE
INPLACE = ["scaled_grads", "found_inf"]   # golden returns their expected contents, in this order


def golden(scaled_grads, found_inf, inv_scale):
    s = np.float32(inv_scale.reshape(-1)[0])
    bad = any(not np.all(np.isfinite(g.astype(np.float32))) for g in scaled_grads)
    flag = np.ones_like(found_inf, dtype=np.float32) if bad else found_inf.astype(np.float32)
    return [g.astype(np.float32) * s for g in scaled_grads], flag


OUT_OF_SCOPE = None
