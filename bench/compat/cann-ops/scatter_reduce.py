"""ScatterReduce (cann-ops src/math/scatter_reduce): torch.scatter_reduce: y = x, then for every position p of index, y at p with axis dim replaced by index[p] is reduced with src[p] ("sum", "prod", "mean", "amax", "amin"); include_self false: the x values of the touched positions are left out of the reduction. No InferShape: output_shapes = x's shape. Case from examples gen_data.py (5 x 5, values in [1, 5), index in [0, 4), amin, dim 0, include_self false) plus sum and mean."""
import numpy as np
PATH = "src/math/scatter_reduce"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_amin", "shapes": {"x": [5, 5], "index": [5, 5], "src": [5, 5]}, "attrs": {"dim": 0, "reduce": "amin", "include_self": False},
     "ranges": {"x": [1.0, 5.0], "index": [0, 3], "src": [1.0, 5.0]}, "output_shapes": {"y": [5, 5]}},
    {"name": "sum_dim1", "shapes": {"x": [16, 40], "index": [16, 24], "src": [16, 24]}, "attrs": {"dim": 1, "reduce": "sum", "include_self": True},
     "ranges": {"x": [1.0, 5.0], "index": [0, 39], "src": [1.0, 5.0]}, "output_shapes": {"y": [16, 40]}},
    {"name": "mean_dim0", "shapes": {"x": [8, 12], "index": [20, 12], "src": [20, 12]}, "attrs": {"dim": 0, "reduce": "mean", "include_self": True},
     "ranges": {"x": [1.0, 5.0], "index": [0, 7], "src": [1.0, 5.0]}, "output_shapes": {"y": [8, 12]}},
]


def golden(x, index, src, *, dim, reduce, include_self=True):
    out = x.astype(np.float64)
    s = src.astype(np.float64)
    groups = {}
    for p in np.ndindex(index.shape):
        q = list(p)
        q[dim] = int(index[p])
        groups.setdefault(tuple(q), []).append(s[p])
    for q, vals in groups.items():
        vals = ([out[q]] if include_self else []) + vals
        out[q] = {"sum": np.sum, "prod": np.prod, "mean": np.mean, "amax": np.max, "amin": np.min}[reduce](vals)
    return out


OUT_OF_SCOPE = None
