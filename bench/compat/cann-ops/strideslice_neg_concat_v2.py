"""StridesliceNegConcatV2 (cann-ops src/math/strideslice_neg_concat_v2): output = input with the second half of the last axis negated (concat of input[..., :c/2] and -input[..., c/2:]). Case from examples gen_data.py ((1, 128, 1, 128), normal values) plus more rows. Measured 2026-12-01: fp16 verifies; fp32 and bf16 cannot be right on hardware either, since the kernel entry instantiates the class for `half` whatever the variant (op_kernel line 100, `StridesliceNegConcatV2<half>`), so 4-byte data is processed as 2-byte halves."""
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
