"""FlashAttentionScoreWithLargeHeadDim (cann-ops src/math/flash_attention_score_with_large_head_dim):
attention_out = softmax(scale_value * q @ k^T) @ v per batch and head (query [B, S1, H], key and
value [B, S2, H], H = head_num x D), float16 in and out, with the softmax's row max and row sum
(of exp(scores - max)) as float32 [B, head_num, S1, 8] (the value repeated over the last 8). Both
products run on the cube (the high-level Matmul), the softmax on the vector unit. Its example
uses B 1, S1 = S2 = 2048, H 576, head_num 1, scale 0.0625; the tiling refuses S2 <= 1024. The
cases keep head_num 1 and S2 just over 1024 with a smaller H (the harness keeps a case under 1M
elements)."""
import numpy as np

PATH = "src/math/flash_attention_score_with_large_head_dim"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "d256", "shapes": {"query": [1, 128, 256], "key": [1, 1088, 256], "value": [1, 1088, 256]},
     "attrs": {"scale_value": 0.0625, "head_num": 1},
     "ranges": {"query": [-1, 1], "key": [-1, 1], "value": [-1, 1]}},
    {"name": "d128", "shapes": {"query": [1, 64, 128], "key": [1, 1152, 128], "value": [1, 1152, 128]},
     "attrs": {"scale_value": 0.0884, "head_num": 1},
     "ranges": {"query": [-2, 2], "key": [-2, 2], "value": [-1, 1]}},
    # ragged: S1 past one 64-row block, S2 past one 1024-column loop (a 76-column tail the kernel
    # pads to 80), D not a multiple of 16
    {"name": "ragged", "shapes": {"query": [1, 100, 200], "key": [1, 1100, 200], "value": [1, 1100, 200]},
     "attrs": {"scale_value": 0.07, "head_num": 1},
     "ranges": {"query": [-1, 1], "key": [-1, 1], "value": [-1, 1]}},
    # two batches over two cores (head_num stays 1: the OpDef's InferShape gives the statistics
    # [B, 1, S1, 8] whatever head_num is)
    {"name": "b2", "shapes": {"query": [2, 72, 256], "key": [2, 1040, 256], "value": [2, 1040, 256]},
     "attrs": {"scale_value": 0.0884, "head_num": 1},
     "ranges": {"query": [-1, 1], "key": [-1, 1], "value": [-1, 1]}},
]


def golden(query, key, value, *, scale_value=1.0, head_num=1):
    b, s1, h = query.shape
    d = h // head_num
    q = query.astype(np.float64).reshape(b, s1, head_num, d).transpose(0, 2, 1, 3)
    k = key.astype(np.float64).reshape(b, -1, head_num, d).transpose(0, 2, 1, 3)
    v = value.astype(np.float64).reshape(b, -1, head_num, d).transpose(0, 2, 1, 3)
    s = (q @ k.transpose(0, 1, 3, 2)) * np.float32(scale_value)
    mx = s.max(-1, keepdims=True)
    e = np.exp(s - mx)
    sm = e.sum(-1, keepdims=True)
    out = (e / sm) @ v
    out = out.transpose(0, 2, 1, 3).reshape(b, s1, h)
    return (np.repeat(mx, 8, -1).astype(np.float32), np.repeat(sm, 8, -1).astype(np.float32),
            out.astype(np.float16))


OUT_OF_SCOPE = None
