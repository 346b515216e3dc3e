"""ReverseSequence (cann-ops src/conversion/reverse_sequence): y = x with, for every batch b (along batch_dim), the first seq_lengths[b] elements along seq_dim reversed and the rest unchanged (tf.reverse_sequence). Cases from examples gen_data.py (x [4, 8, 8], seq_lengths in [1, 8), seq_dim 1, batch_dim 0) plus swapped axes and a larger one."""
import numpy as np
PATH = "src/conversion/reverse_sequence"
SOCS = ["Ascend310P1"]   # its OpDef configures only ascend310p
CASES = [
    {"name": "gen_4x8x8", "shapes": {"x": [4, 8, 8], "seq_lengths": [4]}, "attrs": {"seq_dim": 1, "batch_dim": 0}, "ranges": {"x": [0.0, 1.0], "seq_lengths": [1, 7]}},
    {"name": "time_major_20x6x33", "shapes": {"x": [20, 6, 33], "seq_lengths": [6]}, "attrs": {"seq_dim": 0, "batch_dim": 1}, "ranges": {"x": [-5.0, 5.0], "seq_lengths": [0, 20]}},
    {"name": "rows_16x128", "shapes": {"x": [16, 128], "seq_lengths": [16]}, "attrs": {"seq_dim": 1, "batch_dim": 0}, "ranges": {"x": [-5.0, 5.0], "seq_lengths": [1, 128]}},
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
