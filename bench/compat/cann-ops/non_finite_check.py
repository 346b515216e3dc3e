"""NonFiniteCheck (cann-ops src/math/non_finite_check): found_flag = [1.0] when any tensor of the list holds an inf or NaN, else [0.0]. The example feeds [1, inf, -inf, nan, 0]; case ranges cannot make non-finite values, so the cases check the all-finite answer over lists of several sizes."""
import numpy as np
PATH = "src/math/non_finite_check"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_5", "shapes": {"tensor_list": [[5]]}, "attrs": {}, "ranges": {}, "output_shapes": {"found_flag": [1]}},
    {"name": "two_blocks", "shapes": {"tensor_list": [[8, 2048], [8, 2048]]}, "attrs": {}, "ranges": {"tensor_list": [-60000.0, 60000.0]},
     "output_shapes": {"found_flag": [1]}},
    {"name": "mixed", "shapes": {"tensor_list": [[1], [255], [16, 17], [3, 5, 7], [4096]]}, "attrs": {}, "ranges": {},
     "output_shapes": {"found_flag": [1]}},
]
TOLERANCE = {"float32": {"rtol": 0.0, "atol": 0.0, "error_ratio": 0.0}}


def golden(tensor_list):
    bad = any(not np.all(np.isfinite(t.astype(np.float32))) for t in tensor_list)
    return np.array([1.0 if bad else 0.0], dtype=np.float32)


OUT_OF_SCOPE = None
