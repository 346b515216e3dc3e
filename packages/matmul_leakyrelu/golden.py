"""NumPy reference for MatmulLeakyReluFused."""

import numpy as np


def matmul_leaky_relu(a, b, bias, *, negative_slope=0.01):
    # float64: more exact than the cube's float32 accumulation it is compared with
    c = a.astype(np.float64) @ b.astype(np.float64) + bias.astype(np.float64)
    return np.where(c >= 0, c, c * np.float64(np.float32(negative_slope)))
