"""PreLayerNormCustom (AscendProjects operator/PreLayerNormSample): layer norm of x + y over the
last axis with gamma, beta and a required epsilon, float32. Cases from
AclNNInvocation/scripts/gen_data.py: case1 (4980, 4, 2048) eps 1e-5 and case2 (512, 4, 20480)
eps 1e-7, plus a few rows of each width."""
import numpy as np

PATH = "operator/PreLayerNormSample/FrameworkLaunch/PreLayerNormCustom"
_N = {"x": [-3, 3], "y": [-3, 3], "gamma": [-2, 2], "beta": [-2, 2]}


def _case(name, shape, eps):
    h = shape[-1]
    return {"name": name, "shapes": {"x": shape, "y": shape, "gamma": [h], "beta": [h]},
            "attrs": {"epsilon": eps}, "ranges": _N}


CASES = [
    _case("small_2048", [20, 4, 2048], 1e-5),
    _case("small_20480", [3, 4, 20480], 1e-7),
    _case("case1", [4980, 4, 2048], 1e-5),
    _case("case2", [512, 4, 20480], 1e-7),
]


def golden(x, y, gamma, beta, *, epsilon):
    s = x.astype(np.float64) + y
    mean = s.mean(axis=-1, keepdims=True)
    var = ((s - mean) ** 2).mean(axis=-1, keepdims=True)
    return (s - mean) / np.sqrt(var + epsilon) * gamma + beta


OUT_OF_SCOPE = None
