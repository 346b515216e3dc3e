"""AddcdivCustom (AscendProjects operator/AddcdivCustomSample): out = x + value * y / z, float16.
Cases from AclNNInvocation/scripts/gen_data.py: [1, 96*2048] in [1, 100] with value 1.0, and the
shapes its comment lists ([32, 16384], [32, 1365*16], [32, 3960*16], [368], [1, 31*64+48])."""
import numpy as np

PATH = "operator/AddcdivCustomSample/FrameworkLaunch/AddcdivCustom"
_R = {"x": [1, 100], "y": [1, 100], "z": [1, 100]}


def _case(name, shape, value=1.0):
    return {"name": name, "shapes": {"x": shape, "y": shape, "z": shape},
            "attrs": {"value": value}, "ranges": _R}


CASES = [
    _case("gen_data", [1, 96 * 2048]),
    _case("c32x16384", [32, 16384]),
    _case("c32x1365x16", [32, 1365 * 16]),
    _case("c32x3960x16", [32, 1320 * 3 * 16]),
    _case("c368", [368]),
    _case("ragged", [1, 31 * 64 + 48], value=0.5),
]


def golden(x, y, z, *, value):
    return x.astype(np.float64) + value * (y.astype(np.float64) / z)


OUT_OF_SCOPE = None
