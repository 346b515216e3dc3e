"""Dawsn (cann-ops src/math/dawsn): y = Dawson's integral F(x) = exp(-x**2) * integral_0^x exp(t**2) dt. Cases from tests/st/Dawsn_case_alltype.json ([32] in [-1, 1]) and wider ranges where the kernel switches approximations. The golden integrates numerically (Simpson's rule, 401 nodes, float64): F(x) = x * mean-weighted exp(x**2 (u**2 - 1)) over u in [0, 1]."""
import numpy as np
PATH = "src/math/dawsn"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_32", "shapes": {"x": [32]}, "attrs": {}, "ranges": {"x": [-1.0, 1.0]}},
    {"name": "mid", "shapes": {"x": [16, 257]}, "attrs": {}, "ranges": {"x": [-5.0, 5.0]}},
    {"name": "wide", "shapes": {"x": [4096]}, "attrs": {}, "ranges": {"x": [-20.0, 20.0]}},
]
_U = np.linspace(0.0, 1.0, 401)
_W = np.ones_like(_U)
_W[1:-1:2], _W[2:-1:2] = 4.0, 2.0
_W /= _W.sum()                        # Simpson weights on [0, 1], summing to 1


def golden(x):
    v = x.astype(np.float64).reshape(-1, 1)
    out = np.empty(v.shape[0])
    for i in range(0, v.shape[0], 4096):   # bounded temporaries
        b = v[i:i + 4096]
        out[i:i + 4096] = b[:, 0] * (np.exp(b * b * (_U * _U - 1.0)) @ _W)
    return out.reshape(x.shape)


OUT_OF_SCOPE = None
