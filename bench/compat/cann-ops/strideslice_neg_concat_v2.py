"""StridesliceNegConcatV2 (cann-ops src/math/strideslice_neg_concat_v2): output = input with the second half of the last axis negated (concat of input[..., :c/2] and -input[..., c/2:]). Case from examples gen_data.py ((1, 128, 1, 128), normal values) plus more rows."""
import numpy as np
PATH = "src/math/strideslice_neg_concat_v2"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_1x128x1x128", "shapes": {"input": [1, 128, 1, 128]}, "attrs": {}, "ranges": {"input": [-3.0, 3.0]}},
    {"name": "rows_4x64x1x128", "shapes": {"input": [4, 64, 1, 128]}, "attrs": {}, "ranges": {"input": [-3.0, 3.0]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(input):
    out = input.astype(np.float32)
    half = out.shape[-1] // 2
    out[..., half:] = -out[..., half:]
    return out


OUT_OF_SCOPE = None
