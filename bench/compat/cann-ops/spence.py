"""Spence (cann-ops src/math/spence): y = Spence's function, the integral from 1 to x of log(t) / (1 - t) dt, for x >= 0 (spence(1) = 0, spence(0) = pi**2 / 6). Cases from tests/st/Spence_case_all_type.json ([4095] in [0.1, 1]) and examples gen_data.py ([4095] in [0, 10]) plus the branch x > 2. The golden integrates numerically: with t = 1 + (x - 1) s, spence(x) = -integral_0^1 log(1 + (x - 1) s) / s ds, by 200-node Gauss-Legendre in float64."""
import numpy as np
PATH = "src/math/spence"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_4095", "shapes": {"x": [4095]}, "attrs": {}, "ranges": {"x": [0.1, 1.0]}},
    {"name": "gen_4095", "shapes": {"x": [4095]}, "attrs": {}, "ranges": {"x": [0.0, 10.0]}},
    {"name": "large_x", "shapes": {"x": [3, 100]}, "attrs": {}, "ranges": {"x": [2.0, 50.0]}},
]
_S, _W = np.polynomial.legendre.leggauss(200)
_S, _W = (_S + 1.0) / 2.0, _W / 2.0          # nodes and weights on [0, 1]


def golden(x):
    v = x.astype(np.float64).reshape(-1, 1)
    out = -(np.log1p((v - 1.0) * _S) / _S) @ _W
    out[v[:, 0] == 0.0] = np.pi ** 2 / 6.0
    return out.reshape(x.shape)


OUT_OF_SCOPE = None
