"""ForeachNorm (cann-ops src/foreach/foreach_norm): y[i] = the p-norm of the whole tensor x[i], p = scalar; the kernel knows p = 1 (sum of |x|) and otherwise computes p = 2 (sqrt of the sum of squares). Cases: examples gen_data.py (np.linalg.norm of two [8, 2048] tensors) plus ragged and mixed lists, p = 2 and p = 1."""
import numpy as np
from _shared import FOREACH_TOLERANCE, FOREACH_LISTS
PATH = "src/foreach/foreach_norm"
SOCS = ["Ascend910B1"]
CASES = [{"name": f"{n}_p{p}", "shapes": {"x": s, "scalar": [1]}, "attrs": {},
          "ranges": {"scalar": [float(p), p + 0.9]}, "output_shapes": {"y": [[1]] * len(s)}}
         for p in (2, 1) for n, s in FOREACH_LISTS.items()]
TOLERANCE = FOREACH_TOLERANCE


def golden(x, scalar):
    p = int(np.float64(scalar.reshape(-1)[0]))
    out = []
    for t in x:
        v = np.abs(t.astype(np.float64)).ravel()
        n = v.sum() if p == 1 else np.sqrt((v * v).sum())
        out.append(np.array([n], dtype=np.float32))
    return out


OUT_OF_SCOPE = None
