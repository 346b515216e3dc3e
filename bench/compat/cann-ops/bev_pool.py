"""BevPool (cann-ops src/math/bev_pool): voxel pooling into a BEV grid, element by element. For every pillar i and point j in [interval_starts[i], interval_starts[i] + interval_lengths[i]): the cell (b, z, y, x, c) that ranks_bev[j] indexes in the flat (B, Dz, Dy, Dx, C) grid gains depth.flat[ranks_depth[j]] * feat.flat[ranks_feat[j]]; out is that grid as (B, C, Dz, Dy, Dx). The kernel zeroes `out` first, then multiplies and adds one point at a time in the data type (a 1-element vector Mul and Add), in pillar and point order: the golden does the same, rounding each product and sum to the dtype. Case from tests/st/BevPool_half_type.json and examples gen_data.py (B, N, D, fH, fW = 2, 4, 6, 8, 10; bev (2, 4, 6, 8, 12); 20 points, 10 pillars, index ranges of the st case). The st case states the output shape [2, 12, 4, 6, 8] (its output_desc), as output_shapes does here: the OpDef's InferShape copies depth's shape ([2, 4, 6, 8, 10], op_host/bev_pool.cpp line 65), which the graph would allocate too small; the kernel never reads that shape (it takes B, C, Dz, Dy, Dx from bev_feat_shape)."""
import numpy as np
PATH = "src/math/bev_pool"
SOCS = ["Ascend910B1"]
CASES = [
    {"name": "st_half", "shapes": {"depth": [2, 4, 6, 8, 10], "feat": [2, 4, 8, 10, 12], "ranks_depth": [20],
                                  "ranks_feat": [20], "ranks_bev": [20], "interval_starts": [10],
                                  "interval_lengths": [10]},
     "attrs": {"bev_feat_shape": [2, 4, 6, 8, 12]},
     "ranges": {"depth": [0.1, 1.0], "feat": [0.1, 1.0], "ranks_depth": [0, 3839], "ranks_feat": [0, 7679],
                "ranks_bev": [0, 4607], "interval_starts": [0, 10], "interval_lengths": [1, 9]},
     "output_shapes": {"out": [2, 12, 4, 6, 8]}},
]


def golden(depth, feat, ranks_depth, ranks_feat, ranks_bev, interval_starts, interval_lengths, *, bev_feat_shape):
    d = depth.reshape(-1)
    f = feat.reshape(-1)
    grid = np.zeros(int(np.prod(bev_feat_shape)), dtype=depth.dtype)
    for s, n in zip(interval_starts.reshape(-1), interval_lengths.reshape(-1)):
        for j in range(int(s), int(s) + int(n)):
            # NumPy scalars of the dtype round each operation to it, as the vector unit does
            grid[ranks_bev[j]] = grid[ranks_bev[j]] + d[ranks_depth[j]] * f[ranks_feat[j]]
    return grid.reshape(bev_feat_shape).transpose(0, 4, 1, 2, 3)


OUT_OF_SCOPE = None
