"""DequantSwigluQuant (cann-ops src/activation/dequant_swiglu_quant): x (int32 matmul output or fp16/bf16) -> for int32 x: (x + bias) * weight_scale (per column) * activation_scale (per row); split the last axis in halves, the activated one the right half (activate_left false) or the left: v = silu(act) * other; times quant_scale (per column) when given; quant_mode "dynamic": scale = max|v| / 127 per row and y = round(v / scale), "static": y = round(v + quant_offset); y clamped to int8. Cases after examples gen_data.py (x [2, 32], quant_scale and offset [1]) in dynamic mode (both outputs defined) plus an int32 dequantising case; group_index is left out (one group)."""
import numpy as np
PATH = "src/activation/dequant_swiglu_quant"
SOCS = ["Ascend910B1"]
# output_shapes stated: the op's InferShape gives y the shape of x (op_host/
# dequant_swiglu_quant_def.cpp lines 61-66): its OP_CHECK acts when the condition is false (lines
# 31-37), so `OP_CHECK(IsUnknownRank(xShape), ..., return GRAPH_SUCCESS)` returns before halving
# the last dim for every known shape; y holds half of x's last dim (the kernel and aclnn agree)
CASES = [
    # weight_scale in every case: the int32 variants' tiling requires it (op_host/
    # dequant_swiglu_quant_tiling_base.cpp lines 238-240, "int32时 weight_scale为必选项" and
    # OPS_CHECK_NULL_WITH_CONTEXT); a float x is not dequantised and ignores it (golden likewise)
    {"name": "float_dynamic_2x32", "output_shapes": {"y": [2, 16], "scale": [2]}, "shapes": {"x": [2, 32], "weight_scale": [1, 32], "quant_scale": [1, 16]}, "attrs": {"activate_left": False, "quant_mode": "dynamic"},
     "ranges": {"x": [-3.0, 3.0], "weight_scale": [0.05, 0.1], "quant_scale": [0.95, 1.05]}},
    {"name": "float_dynamic_64x512", "output_shapes": {"y": [64, 256], "scale": [64]}, "shapes": {"x": [64, 512], "weight_scale": [1, 512], "quant_scale": [1, 256]}, "attrs": {"activate_left": True, "quant_mode": "dynamic"},
     "ranges": {"x": [-3.0, 3.0], "weight_scale": [0.05, 0.1], "quant_scale": [0.5, 2.0]}},
    {"name": "int32_dequant_32x256", "output_shapes": {"y": [32, 128], "scale": [32]}, "shapes": {"x": [32, 256], "weight_scale": [1, 256], "activation_scale": [32], "quant_scale": [1, 128]},
     "attrs": {"activate_left": False, "quant_mode": "dynamic"},
     "ranges": {"x": [-1000, 1000], "weight_scale": [0.001, 0.01], "activation_scale": [0.5, 1.5], "quant_scale": [0.95, 1.05]}},
]
TOLERANCE = {"int8": {"rtol": 0.0, "atol": 1.0, "error_ratio": 1e-3},   # one step of rounding
             "float32": {"rtol": 1e-4, "atol": 1e-4, "error_ratio": 1e-4}}


def golden(x, weight_scale, activation_scale, bias, quant_scale, quant_offset, group_index, *,
           activate_left=False, quant_mode="static"):
    v = x.astype(np.float64).reshape(-1, x.shape[-1])
    if np.issubdtype(x.dtype, np.integer):
        if bias is not None:
            v = v + bias.astype(np.float64).reshape(1, -1)
        if weight_scale is not None:
            v = v * weight_scale.astype(np.float64).reshape(1, -1)
        if activation_scale is not None:
            v = v * activation_scale.astype(np.float64).reshape(-1, 1)
    left, right = np.split(v, 2, axis=-1)
    act, other = (left, right) if activate_left else (right, left)
    out = act / (1.0 + np.exp(-act)) * other
    if quant_scale is not None:
        out = out * quant_scale.astype(np.float64).reshape(1, -1)
    if quant_mode == "dynamic":
        scale = np.abs(out).max(axis=-1) / 127.0
        out = out / np.where(scale == 0, 1.0, scale)[:, None]
    else:
        scale = np.zeros(out.shape[0])
        if quant_offset is not None:
            out = out + quant_offset.astype(np.float64).reshape(1, -1)
    y = np.round(np.clip(out, -128, 127)).astype(np.int8)
    return y.reshape(x.shape[:-1] + (x.shape[-1] // 2,)), scale.reshape(x.shape[:-1])


OUT_OF_SCOPE = None
