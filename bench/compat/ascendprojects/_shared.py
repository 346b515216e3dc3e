# MatMulCustomSample's two projects (SingleCore, MultiCore) share their data generator and check:
# FrameworkLaunch/AclNNInvocation/scripts/gen_data.py and verify_result.py.
import numpy as np

# a [1024, 256] in [1, 10], b [256, 640] and bias [640] in [-100, 100]; a second, smaller case
# with the same proportions of ranges
MATMUL_CASES = [
    {"name": "gen_data", "shapes": {"a": [1024, 256], "b": [256, 640], "bias": [640]},
     "ranges": {"a": [1, 10], "b": [-100, 100], "bias": [-100, 100]}},
    {"name": "small", "shapes": {"a": [64, 32], "b": [32, 96], "bias": [96]},
     "ranges": {"a": [1, 10], "b": [-100, 100], "bias": [-100, 100]}},
]

# verify_result.py: an element fails when it is off by more than 1e-2 both absolutely and
# relatively, and one failing element fails the run
MATMUL_TOLERANCE = {"float32": {"rtol": 1e-2, "atol": 1e-2, "error_ratio": 0}}


def matmul_bias(a, b, bias):
    return a.astype(np.float64) @ b.astype(np.float64) + bias.astype(np.float64)
