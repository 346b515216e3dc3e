"""LayerNormCustom (AscendProjects operator/LayerNormCustomSample): layer norm over the last
axis, res_out = (x - mean) / sqrt(var + epsilon) * gamma + beta, float32. Case from
AclNNInvocation/scripts/gen_data.py ([16384, 1024], normal inputs, epsilon 1e-5) plus fewer rows
(rows that do not divide across the cores)."""
import numpy as np

PATH = "operator/LayerNormCustomSample/FrameworkLaunch/LayerNormCustom"
_N = {"x": [-3, 3], "gamma": [-2, 2], "beta": [-2, 2]}
CASES = [
    {"name": "rows96", "shapes": {"x": [96, 1024], "gamma": [1024], "beta": [1024]},
     "attrs": {"epsilon": 1e-5}, "ranges": _N},
    {"name": "rows100", "shapes": {"x": [100, 1024], "gamma": [1024], "beta": [1024]},
     "attrs": {"epsilon": 1e-5}, "ranges": _N},
    {"name": "gen_data", "shapes": {"x": [16384, 1024], "gamma": [1024], "beta": [1024]},
     "attrs": {"epsilon": 1e-5}, "ranges": _N},
]
TOLERANCE = {"float32": {"rtol": 1e-4, "atol": 1e-4, "error_ratio": 1e-4}}   # verify_result.py


def golden(x, gamma, beta, *, epsilon):
    x = x.astype(np.float64)
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + epsilon) * gamma + beta


OUT_OF_SCOPE = None
