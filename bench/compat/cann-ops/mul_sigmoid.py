"""MulSigmoid (cann-ops src/math/mul_sigmoid): s = sigmoid(t1 * x1); out = (s if s < t2 else 2 s) * x2 * t3, with x1 [rows, 32768] viewed as [rows, 256, 128] and x2 [1, 256, 128] broadcast over rows. Case from examples gen_data.py (x1 [25, 32768], x2 [1, 256, 128], t1 0.3, t2 0.1, t3 0.8; normal values, here uniform in [-3, 3]) plus fewer rows."""
import numpy as np
PATH = "src/math/mul_sigmoid"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_25rows", "shapes": {"x1": [25, 32768], "x2": [1, 256, 128]}, "attrs": {"t1": 0.3, "t2": 0.1, "t3": 0.8},
     "ranges": {"x1": [-3.0, 3.0], "x2": [-3.0, 3.0]}, "output_shapes": {"out": [25, 256, 128]}},
    {"name": "rows_3", "shapes": {"x1": [3, 32768], "x2": [1, 256, 128]}, "attrs": {"t1": 0.3, "t2": 0.5, "t3": 0.8},
     "ranges": {"x1": [-3.0, 3.0], "x2": [-3.0, 3.0]}, "output_shapes": {"out": [3, 256, 128]}},
]


def golden(x1, x2, *, t1, t2, t3):
    s = 1.0 / (1.0 + np.exp(-x1.astype(np.float32) * np.float32(t1)))
    sel = np.where(s < t2, s, 2.0 * s)
    return (sel.reshape(x1.shape[0], 256, 128) * x2.astype(np.float32) * np.float32(t3))


OUT_OF_SCOPE = None
