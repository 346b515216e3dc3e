"""NumPy reference for FusedAddScaleCustom."""

import numpy as np


def fused_add_scale(a, b, *, scale):
    # float64: the exact (a + b) * scale, whatever the input dtype.
    return (a.astype(np.float64) + b.astype(np.float64)) * scale
