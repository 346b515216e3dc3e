"""HistogramV2 (cann-ops src/math/histogram_v2): y = counts of x in `bins` equal-width bins over [min, max] (min and max one-element tensors; values outside are dropped, x == max falls in the last bin; torch.histc). Cases after examples gen_data.py (x [10, 10] in [-100, 100], 10 bins; here non-negative ranges, valid for the uint8 variant too) plus the default 100 bins over a larger tensor (given explicitly: the default is a named constant, DEFAULT_BIN, in op_host)."""
import numpy as np
PATH = "src/math/histogram_v2"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_10x10_bins10", "shapes": {"x": [10, 10], "min": [1], "max": [1]}, "attrs": {"bins": 10},
     "ranges": {"x": [0.0, 100.0], "min": [-0.01, 0.01], "max": [95, 105]}},
    {"name": "bins100_clipped", "shapes": {"x": [64, 513], "min": [1], "max": [1]}, "attrs": {"bins": 100},
     "ranges": {"x": [0.0, 120.0], "min": [19, 21], "max": [76, 84]}},
]


def golden(x, min, max, *, bins=100):
    v = x.astype(np.float64).reshape(-1)
    lo, hi = float(min.reshape(-1)[0]), float(max.reshape(-1)[0])
    if lo == hi:                       # torch.histc: an empty range means the data's own range
        lo, hi = v.min(), v.max()
    keep = v[(v >= lo) & (v <= hi)]
    idx = np.minimum(((keep - lo) * bins / (hi - lo)).astype(np.int64), bins - 1)
    return np.bincount(idx, minlength=bins).astype(np.int32)


OUT_OF_SCOPE = None
