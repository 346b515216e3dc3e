"""ForeachNorm (cann-ops src/foreach/foreach_norm): y[i] = the p-norm of the whole tensor x[i], p = scalar; the kernel knows p = 1 (sum of |x|) and otherwise computes p = 2 (sqrt of the sum of squares). Cases: examples gen_data.py (np.linalg.norm of two [8, 2048] tensors) plus ragged and mixed lists, p = 2 and p = 1."""
import numpy as np
PATH = "src/foreach/foreach_norm"
SOCS = ["Ascend910B1"]
_LISTS = {"example": [[8, 2048], [8, 2048]], "ragged": [[6], [3]],
          "mixed": [[1], [255], [16, 17], [3, 5, 7], [4096]]}
CASES = [{"name": f"{n}_p{p}", "shapes": {"x": s, "scalar": [1]}, "attrs": {},
          "ranges": {"scalar": [float(p), p + 0.9]}, "output_shapes": {"y": [[1]] * len(s)}}
         for p in (2, 1) for n, s in _LISTS.items()]
TOLERANCE = {"float32": {"rtol": 1e-4, "atol": 1e-4, "error_ratio": 1e-4},
             "float16": {"rtol": 1e-3, "atol": 1e-3, "error_ratio": 1e-3},
             "bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(x, scalar):
    p = int(np.float64(scalar.reshape(-1)[0]))
    out = []
    for t in x:
        v = np.abs(t.astype(np.float64)).ravel()
        n = v.sum() if p == 1 else np.sqrt((v * v).sum())
        out.append(np.array([n], dtype=np.float32))
    return out


OUT_OF_SCOPE = None
