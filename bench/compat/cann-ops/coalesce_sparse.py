"""CoalesceSparse (cann-ops src/conversion/coalesce_sparse): merge duplicate entries of a COO sparse tensor. unique_len holds the u unique flattened indices and unique_indices, for each of the n entries, its slot among them (torch.unique with return_inverse); new_values[slot] = the sum of the values of its entries and new_indices[:, slot] = the indices of an entry of that slot. The harness draws unique_indices independently of indices, so the cases make every column of indices the same (equal range bounds: new_indices is then well defined) and use many entries per slot so that every slot is hit. Shapes after examples gen_data.py (m 8 sparse dims, values [n, 7, 2, 3])."""
import numpy as np
PATH = "src/conversion/coalesce_sparse"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "gen_m8_u4_n200", "shapes": {"unique_len": [4], "unique_indices": [200], "indices": [8, 200], "values": [200, 7, 2, 3]},
     "attrs": {}, "ranges": {"unique_len": [0, 100], "unique_indices": [0, 3], "indices": [3, 3], "values": [-10, 10]},
     "output_shapes": {"new_indices": [8, 4], "new_values": [4, 7, 2, 3]}},
    {"name": "m2_u8_n300_flat", "shapes": {"unique_len": [8], "unique_indices": [300], "indices": [2, 300], "values": [300]},
     "attrs": {}, "ranges": {"unique_len": [0, 100], "unique_indices": [0, 7], "indices": [5, 5], "values": [-10, 10]},
     "output_shapes": {"new_indices": [2, 8], "new_values": [8]}},
]


def golden(unique_len, unique_indices, indices, values):
    u = unique_len.shape[0]
    slot = unique_indices.reshape(-1).astype(np.int64)
    wide = np.int64 if np.issubdtype(values.dtype, np.integer) else np.float64
    new_values = np.zeros((u,) + values.shape[1:], dtype=wide)
    np.add.at(new_values, slot, values.astype(wide))
    new_indices = np.zeros((indices.shape[0], u), dtype=np.int64)
    new_indices[:, slot] = indices
    return new_indices, new_values


OUT_OF_SCOPE = None
