"""UnalignAdd (cann-ops src/math/unalign_add): z = x + y (fp16). Cases from tests/st/UnalignAdd_case_all_type.json ([8, 2048] in [0.1, 1]) and examples gen_data.py ([8, 2048] in [-1, 1]) plus the unaligned [1, 999] of the AscendProjects sample and a small one."""
import numpy as np
PATH = "src/math/unalign_add"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_8x2048", "shapes": {"x": [8, 2048], "y": [8, 2048]}, "attrs": {}, "ranges": {"x": [0.1, 1.0], "y": [0.1, 1.0]}},
    {"name": "gen_8x2048", "shapes": {"x": [8, 2048], "y": [8, 2048]}, "attrs": {}, "ranges": {}},
    {"name": "unaligned_1x999", "shapes": {"x": [1, 999], "y": [1, 999]}, "attrs": {}, "ranges": {}},
    {"name": "small_5", "shapes": {"x": [5], "y": [5]}, "attrs": {}, "ranges": {}},
]


def golden(x, y):
    return x.astype(np.float32) + y.astype(np.float32)


OUT_OF_SCOPE = None
