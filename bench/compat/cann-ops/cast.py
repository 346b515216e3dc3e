"""Cast (cann-ops src/math/cast): y = x converted to the dtype dst_type names (ge::DataType numbering: 0 float32, 1 float16, 2 int8, 3 int32, 4 uint8, 6 int16, 9 int64, 12 bool, 27 bfloat16); floating values go to integers truncated toward zero, to bool as x != 0. The tiling rejects a dst_type other than the output's dtype, so each dtype variant gets its own value (per_variant, from the OpDef's x/y dtype pairs). Cases from tests/st/Cast_case_f162f32.json ([100] in [-5, 5]) and examples gen_data.py ([10, 10])."""
import numpy as np
PATH = "src/math/cast"
SOCS = ["Ascend910B1"]
GE = {"float32": 0, "float16": 1, "int8": 2, "int32": 3, "uint8": 4, "int16": 6, "int64": 9, "bool": 12, "bfloat16": 27}
# the OpDef's (x, y) dtype pairs, in its order: x = source, y = every dtype the source converts to
PAIRS = [("float16", y) for y in ("float32", "int8", "int32", "int16", "uint8", "bool", "bfloat16")] + \
    [("float32", y) for y in ("float16", "bfloat16", "int32", "int64", "bool", "int8", "uint8", "int16")] + \
    [("int32", y) for y in ("float32", "float16", "bfloat16", "int8", "uint8", "int16", "int64", "bool")] + \
    [("int8", y) for y in ("float16", "float32", "int32", "uint8", "bool", "bfloat16", "int16", "int64")] + \
    [("uint8", y) for y in ("float16", "float32", "int32", "int8", "int16", "bfloat16", "int64")] + \
    [("bool", y) for y in ("float16", "float32", "int32", "int8", "uint8", "bfloat16", "int64")] + \
    [("int64", y) for y in ("float16", "float32", "int8", "int32", "uint8", "bool", "int16", "bfloat16")] + \
    [("bfloat16", y) for y in ("float16", "float32", "int8", "int32", "uint8", "bool")] + \
    [("int16", y) for y in ("float16", "float32", "int8", "int32", "uint8", "int64")]
DST_TYPE = {"per_variant": {f"{x}_{y}": GE[y] for x, y in PAIRS}}
CASES = [
    {"name": "st_f16_f32", "shapes": {"x": [100]}, "attrs": {"dst_type": DST_TYPE}, "ranges": {"x": [-5.0, 5.0]}},
    {"name": "gen_10x10", "shapes": {"x": [10, 10]}, "attrs": {"dst_type": DST_TYPE}, "ranges": {"x": [-5.0, 5.0]}},
    {"name": "ragged", "shapes": {"x": [3, 1037]}, "attrs": {"dst_type": DST_TYPE}, "ranges": {"x": [-5.0, 5.0]}},
]


def golden(x, *, dst_type):
    # the verifier casts the result to the output dtype; NumPy's float -> int cast truncates
    # toward zero and float -> bool tests != 0, which is what the operator does
    if np.issubdtype(x.dtype, np.integer) or x.dtype == np.bool_:
        return x.copy()
    v = x.astype(np.float64)
    return np.trunc(v) if dst_type in (2, 3, 4, 6, 9) else v


OUT_OF_SCOPE = None
