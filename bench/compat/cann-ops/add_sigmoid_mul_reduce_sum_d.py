"""AddSigmoidMulReduceSumD (cann-ops src/math/add_sigmoid_mul_reduce_sum_d): out = sum over axis 1 of sigmoid((a0 + a1) * m0) * m1 * m2, a fused fp16 chain with broadcasting ([40, 64, 32] + [1, 1, 32], a [1] multiplier, a [40, 64, 1] factor). Case from examples gen_data.py (values in [-0.2, 0.2], the multiplier -0.1)."""
import numpy as np
PATH = "src/math/add_sigmoid_mul_reduce_sum_d"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen", "shapes": {"add_0_input0": [40, 64, 32], "add_0_input1": [1, 1, 32], "mul_0_input1": [1],
                               "mult_1_input1": [40, 64, 1], "mult_2_input1": [40, 64, 32]},
     "attrs": {}, "ranges": {"add_0_input0": [-0.2, 0.2], "add_0_input1": [-0.2, 0.2], "mul_0_input1": [-0.105, -0.095],
                             "mult_1_input1": [-0.2, 0.2], "mult_2_input1": [-0.2, 0.2]}},
]


def golden(add_0_input0, add_0_input1, mul_0_input1, mult_1_input1, mult_2_input1):
    f = np.float32
    t = (add_0_input0.astype(f) + add_0_input1.astype(f)) * mul_0_input1.astype(f)
    s = 1.0 / (1.0 + np.exp(-t))
    return np.sum(s * mult_1_input1.astype(f) * mult_2_input1.astype(f), axis=1)


OUT_OF_SCOPE = None
