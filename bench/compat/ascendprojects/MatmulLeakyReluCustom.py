"""MatmulLeakyReluCustom (AscendProjects operator/MatMulLeakyReluCustomSample): c = leaky_relu(a @ b
+ bias) with the high-level Matmul (Iterate / GetTensorC into UB) and LeakyRelu on the vector
unit, alpha 0.001 fixed in the tiling. Case from FrameworkLaunch/AclNNInvocation/scripts/gen_data.py:
a [1024, 256] in [1, 10], b [256, 640] and bias [640] in [-100, 100]. The kernel copies whole
baseM x baseN blocks, so shapes must be multiples of its fixed split (128 x 128)."""
import numpy as np

PATH = "operator/MatMulLeakyReluCustomSample/FrameworkLaunch/MatmulLeakyReluCustom"
CASES = [
    {"name": "gen_data", "shapes": {"a": [1024, 256], "b": [256, 640], "bias": [640]},
     "ranges": {"a": [1, 10], "b": [-100, 100], "bias": [-100, 100]}},
]
# The sample's own check (AclNNInvocation/scripts/verify_result.py): at most 0.1% of elements off
# by more than 1e-3 relatively and absolutely.
TOLERANCE = {"float32": {"rtol": 1e-3, "atol": 1e-3, "error_ratio": 1e-3}}


def golden(a, b, bias):
    c = a.astype(np.float64) @ b.astype(np.float64) + bias.astype(np.float64)
    return np.where(c >= 0, c, c * np.float32(0.001))


OUT_OF_SCOPE = None
