"""Gather (cann-ops src/math/gather): y = x1 gathered along axis batch_dims at indices (tf.gather with batch_dims: the leading batch_dims axes of x1 and indices pair up). Cases after examples gen_data.py (x1 [96, 43, 1023], indices [96, 43] in [1, 43), batch_dims 1; here [8, 43, 129]) plus a plain gather along axis 0."""
import numpy as np
PATH = "src/math/gather"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_batch1", "shapes": {"x1": [8, 43, 129], "indices": [8, 43]}, "attrs": {"batch_dims": 1},
     "ranges": {"x1": [-5, 5], "indices": [1, 42]}},
    {"name": "axis0", "shapes": {"x1": [64, 33], "indices": [20]}, "attrs": {"batch_dims": 0},
     "ranges": {"x1": [-5, 5], "indices": [0, 63]}},
]


def golden(x1, indices, *, validate_indices=True, batch_dims=0, is_preprocessed=False, negative_index_support=False):
    idx = indices.astype(np.int64)
    if negative_index_support:
        idx = np.where(idx < 0, idx + x1.shape[batch_dims], idx)
    lead = x1.shape[:batch_dims]
    xb = x1.reshape((-1,) + x1.shape[batch_dims:])
    ib = idx.reshape((-1,) + idx.shape[batch_dims:])
    out = np.stack([np.take(xb[b], ib[b], axis=0) for b in range(xb.shape[0])])
    return out.reshape(lead + idx.shape[batch_dims:] + x1.shape[batch_dims + 1:])


OUT_OF_SCOPE = None
