import numpy as np


def repo_api(x, *, scale, mask_len=0):
    lane = np.arange(x.size) % 64
    y = (x * scale).astype(np.float32)
    if mask_len:
        y = np.where(lane < mask_len, y, np.float32(-1))
    info = np.array([8, 16, 15, 16, scale, 1 if mask_len else 0, 2201, x.size], np.int32)
    return y, info
