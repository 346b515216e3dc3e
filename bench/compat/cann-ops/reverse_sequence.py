"""ReverseSequence (cann-ops src/conversion/reverse_sequence): y = x with, for every batch b (along batch_dim), the first seq_lengths[b] elements along seq_dim reversed and the rest unchanged (tf.reverse_sequence). The AI Core tiling takes only shapes whose dims after max(seq_dim, batch_dim) hold at least 32 bytes (op_host reverse_sequence.cpp: \"MTE carries less than 32 Byte.\"; its CheckSupported sends the others elsewhere), 32 elements for the 1-byte dtypes: cases after examples gen_data.py (x [4, 8, 8], seq_lengths in [1, 8), seq_dim 1, batch_dim 0) with the last dim widened to 32, swapped axes, and a larger one."""
import numpy as np
PATH = "src/conversion/reverse_sequence"
SOCS = ["Ascend310P1"]   # its OpDef configures only ascend310p
CASES = [
    {"name": "gen_4x8x32", "shapes": {"x": [4, 8, 32], "seq_lengths": [4]}, "attrs": {"seq_dim": 1, "batch_dim": 0}, "ranges": {"x": [0.0, 1.0], "seq_lengths": [1, 7]}},
    {"name": "time_major_20x6x33", "shapes": {"x": [20, 6, 33], "seq_lengths": [6]}, "attrs": {"seq_dim": 0, "batch_dim": 1}, "ranges": {"x": [-5.0, 5.0], "seq_lengths": [0, 20]}},
    {"name": "rows_16x40x64", "shapes": {"x": [16, 40, 64], "seq_lengths": [16]}, "attrs": {"seq_dim": 1, "batch_dim": 0}, "ranges": {"x": [-5.0, 5.0], "seq_lengths": [1, 40]}},
]


def golden(x, seq_lengths, *, seq_dim, batch_dim=0):
    seq_dim %= x.ndim
    batch_dim %= x.ndim
    y = x.copy()
    for b, n in enumerate(seq_lengths.reshape(-1)):
        n = int(n)
        src = [slice(None)] * x.ndim
        src[batch_dim], src[seq_dim] = b, slice(0, n)
        dst = list(src)
        dst[seq_dim] = slice(n - 1, None, -1) if n > 0 else slice(0, 0)
        y[tuple(src)] = x[tuple(dst)]
    return y


OUT_OF_SCOPE = None
