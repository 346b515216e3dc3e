"""Radius (cann-ops src/math/radius): for every point y[i], the points x[j] with ||x[j] - y[i]|| <= r (at most max_num_neighbors of them, in index order; ignore_same_index drops j == i), out = [2, K] pairs (row 0 the x index, row 1 the y index), in x's dtype; ptr_x/ptr_y split both into batches (absent, and so not passed to the golden: one batch). The number of pairs depends on the data, so the cases choose r larger than any distance in the value range: every y point then has min(N, max_num_neighbors) neighbours and output_shapes is known. Cases after tests/st/Radius_all_case.json (values in [0.1, 1]) and the examples' gen_data.py."""
import numpy as np
PATH = "src/math/radius"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "all_within_cap32", "shapes": {"x": [50, 3], "y": [20, 3]}, "attrs": {"r": 10.0, "max_num_neighbors": 32, "ignore_same_index": False},
     "ranges": {"x": [0.1, 1.0], "y": [0.1, 1.0]}, "output_shapes": {"out": [2, 640]}},
    {"name": "all_within_uncapped", "shapes": {"x": [9, 2], "y": [7, 2]}, "attrs": {"r": 10.0, "max_num_neighbors": 32, "ignore_same_index": False},
     "ranges": {"x": [0.1, 1.0], "y": [0.1, 1.0]}, "output_shapes": {"out": [2, 63]}},
]


def golden(x, y, ptr_x=None, ptr_y=None, *, r, max_num_neighbors, ignore_same_index):
    xv, yv = x.astype(np.float32), y.astype(np.float32)
    px = [0, len(xv)] if ptr_x is None or ptr_y is None else list(ptr_x)
    py = [0, len(yv)] if ptr_x is None or ptr_y is None else list(ptr_y)
    pairs = []
    for b in range(len(px) - 1):
        xs, xe, ys, ye = px[b], px[b + 1], py[b], py[b + 1]
        for i in range(ys, ye):
            d = np.sqrt(((xv[xs:xe] - yv[i]) ** 2).sum(axis=1))
            nb = np.nonzero(d <= r)[0] + xs
            if ignore_same_index:
                nb = nb[nb != i]
            pairs += [(j, i) for j in nb[:max_num_neighbors]]
    return np.array(pairs, dtype=np.float64).reshape(-1, 2).T


OUT_OF_SCOPE = None
