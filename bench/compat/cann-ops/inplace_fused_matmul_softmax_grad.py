"""InplaceFusedMatmulSoftmaxGrad (cann-ops src/math/inplace_fused_matmul_softmax_grad): the
softmax gradient of a matmul product, in place: with g = gradOutput @ values^T (the high-level
Matmul, B transposed, float32 out), softmaxOutput becomes (g - sum(softmaxOutput * g, -1)) *
softmaxOutput. softmaxOutput [m, n], gradOutput [m, k], values [n, k]; no output in the OpDef
(INPLACE). Its gen_data.py uses [12, 20000] x [12, 128] x [20000, 128] (standard normal); the
cases keep m and k and shrink n to stay under the harness's 1M elements, plus a small one."""
import numpy as np

PATH = "src/math/inplace_fused_matmul_softmax_grad"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_12x4000x128", "shapes": {"softmaxOutput": [12, 4000], "gradOutput": [12, 128],
                                           "values": [4000, 128]},
     "ranges": {"softmaxOutput": [0, 1], "gradOutput": [-1, 1], "values": [-1, 1]}},
    {"name": "small_16x200x64", "shapes": {"softmaxOutput": [16, 200], "gradOutput": [16, 64],
                                           "values": [200, 64]},
     "ranges": {"softmaxOutput": [0, 1], "gradOutput": [-1, 1], "values": [-1, 1]}},
]
TOLERANCE = {"bfloat16": {"rtol": 8e-3, "atol": 8e-3, "error_ratio": 4e-3}}
INPLACE = ["softmaxOutput"]


def golden(softmaxOutput, gradOutput, values):
    s = softmaxOutput.astype(np.float64)
    g = gradOutput.astype(np.float64) @ values.astype(np.float64).T
    return ((g - (s * g).sum(-1, keepdims=True)) * s,)


OUT_OF_SCOPE = None
