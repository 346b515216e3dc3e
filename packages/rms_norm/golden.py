"""NumPy reference for RmsNormCustom."""

import numpy as np


def rms_norm(x, gamma, *, epsilon):
    # float64 whatever the input dtype: the reference must be more exact than any kernel variant.
    x = x.astype(np.float64)
    ms = np.square(x).mean(axis=-1, keepdims=True)
    return x / np.sqrt(ms + epsilon) * gamma.astype(np.float64)
