"""MoeInitRoutingV2 (cann-ops src/math/moe_init_routing_v2): MoE token routing, dropless mode (drop_pad_mode 0). The N x K expert ids are sorted stably by expert; expanded_x[i] = x[row of the i-th sorted entry], expanded_row_idx[j] = where flat entry j (row j // K, slot j % K) landed in that order; expert_tokens_count_or_cumsum = per-expert cumulative counts (flag 1) or counts (flag 2) over expert_num experts (flag 0: not produced); active_num > 0 keeps only the first active_num expanded rows. expert_tokens_before_capacity belongs to the drop/pad mode and is not produced here. Cases from examples/AclNNInvocationNaive/main.cpp (x [3, 4], expert_idx [3, 3] in [0, 2], expert_num 3, cumsum) plus a larger count case and an active_num limit (the example's gen_data.py holds no routing reference)."""
import numpy as np
PATH = "src/math/moe_init_routing_v2"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "example_3x4", "shapes": {"x": [3, 4], "expert_idx": [3, 3]},
     "attrs": {"expert_num": 3, "expert_tokens_count_or_cumsum_flag": 1, "end_expertId": 2}, "ranges": {"expert_idx": [0, 2]}},
    # count mode (flag 2): the operator bounds the rows it writes by count[end_expertId], a bug
    # of the operator recorded in classification.yaml; kept as the measurement of it
    {"name": "count_64x256_k4", "shapes": {"x": [64, 256], "expert_idx": [64, 4]},
     "attrs": {"expert_num": 8, "expert_tokens_count_or_cumsum_flag": 2, "end_expertId": 7}, "ranges": {"expert_idx": [0, 7]}},
    {"name": "active_100", "shapes": {"x": [48, 96], "expert_idx": [48, 3]},
     "attrs": {"active_num": 100, "expert_num": 6, "expert_tokens_count_or_cumsum_flag": 1, "end_expertId": 5},
     "ranges": {"expert_idx": [0, 5]}},
]
TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}


def golden(x, expert_idx, *, active_num=0, expert_capacity=0, expert_num=0, drop_pad_mode=0,
           expert_tokens_count_or_cumsum_flag=0, expert_tokens_before_capacity_flag=False,
           start_expertId=0, end_expertId=0, device_id=0):
    k = expert_idx.shape[1]
    flat = expert_idx.reshape(-1).astype(np.int64)
    order = np.argsort(flat, kind="stable")          # flat entries in expert order
    pos = np.empty_like(order)
    pos[order] = np.arange(order.size)
    rows = order // k
    if active_num > 0:
        rows = rows[:active_num]
    expanded_x = x[rows].copy()
    counts = np.bincount(flat, minlength=expert_num)[:expert_num]
    tokens = {1: np.cumsum(counts), 2: counts}.get(expert_tokens_count_or_cumsum_flag)
    return (expanded_x, pos.astype(np.int32),
            None if tokens is None else tokens.astype(np.int32), None)


OUT_OF_SCOPE = None
