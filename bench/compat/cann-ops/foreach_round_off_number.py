"""ForeachRoundOffNumber (cann-ops src/foreach/foreach_round_off_number): y[i] = round(x[i]) in the mode held by the int8 tensor roundMode: 1 rint (half to even), 2 floor, 3 ceil, 4 round (half away from zero), 5 trunc, 7 frac (x - trunc(x)); 0 and 6 are no rounding / round-to-odd casts. Cases: examples gen_data.py (mode 3, np.ceil of two [8, 2048] tensors) plus ragged and mixed lists and the other modes."""
import numpy as np
from _shared import FOREACH_TOLERANCE, FOREACH_LISTS
PATH = "src/foreach/foreach_round_off_number"
SOCS = ["Ascend910B1"]
_MODES = {"rint": 1, "floor": 2, "ceil": 3, "round": 4, "trunc": 5, "frac": 7}
CASES = [{"name": f"{n}_ceil", "shapes": {"x": s, "roundMode": [1]}, "attrs": {},
          "ranges": {"x": [-10.0, 10.0], "roundMode": [3, 3]}, "output_shapes": {"y": s}}
         for n, s in FOREACH_LISTS.items()]
CASES += [{"name": f"mixed_{m}", "shapes": {"x": FOREACH_LISTS["mixed"], "roundMode": [1]}, "attrs": {},
           "ranges": {"x": [-10.0, 10.0], "roundMode": [k, k]}, "output_shapes": {"y": FOREACH_LISTS["mixed"]}}
          for m, k in _MODES.items() if m != "ceil"]
TOLERANCE = FOREACH_TOLERANCE


def _round(v, mode):
    if mode == 1:
        return np.rint(v)
    if mode == 2:
        return np.floor(v)
    if mode == 3:
        return np.ceil(v)
    if mode == 4:
        return np.sign(v) * np.floor(np.abs(v) + 0.5)
    if mode == 5:
        return np.trunc(v)
    if mode == 7:
        return v - np.trunc(v)
    return v   # CAST_NONE / CAST_ODD into the same float width: the value itself


def golden(x, roundMode):
    mode = int(roundMode.reshape(-1)[0])
    # fp16/bf16 go through fp32 in the kernel; the rounded value is exact in the narrow type
    return [_round(t.astype(np.float32), mode) for t in x]


OUT_OF_SCOPE = None
