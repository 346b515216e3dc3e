"""The cube's 4:2 sparse product (cube.h: LoadDataWithSparse, MmadWithSparse) on our own kernel
(tests/sim/pkgs/cubesparse): a B with at most two nonzeros in every group of four k rows,
densified and indexed as the Ascend C documentation's 4:2 index table gives it, multiplied by A
on the sim and compared with NumPy's dense product; an index of 3 and a product without the
index load are reported at the kernel's line. Also Fixpipe's per-channel dequantisation (VDEQF16
with a cbufWorkspace in L1) on that product."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, TensorSpec
from opkg.sim import runtime
import simbuild

OP = OpSpec(
    "CubeSparse",
    (TensorSpec("a", ("int8",)), TensorSpec("b", ("int8",)), TensorSpec("idx", ("uint8",)),
     TensorSpec("q", ("uint64",))),
    (TensorSpec("c", ("int32",)),),
    tuple(AttrSpec(x, "int", required=True) for x in ("which", "m", "n", "k")),
)
KERNEL = Path(__file__).parent / "pkgs" / "cubesparse" / "op_kernel" / "cube_sparse.cpp"


@pytest.fixture(scope="module")
def built(pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "cubesparse", OP, OP.variants()[0], soc910b, lib_cache, stem="cube_sparse")


def up(v, a):
    return (v + a - 1) // a * a


def sparse_b(k, n, rng):
    """k x n int8 with at most two nonzeros in each group of four rows (every pattern occurs)."""
    b = rng.integers(-128, 128, (k, n)).astype(np.int8)
    b[b == 0] = 1
    for g in range(k // 4):
        for j in range(n):
            keep = rng.choice(4, size=rng.integers(0, 3), replace=False)
            for r in range(4):
                if r not in keep:
                    b[4 * g + r, j] = 0
    return b


def densify(b):
    """The documented rule: per group, the dense pair and its indices (first: the position of
    the first nonzero among rows 0..2; second: the second's among rows 1..3)."""
    k, n = b.shape
    dense = np.zeros((k // 2, n), np.int8)
    idx = np.zeros((k // 2, n), np.uint8)
    for g in range(k // 4):
        for j in range(n):
            nz = [r for r in range(4) if b[4 * g + r, j] != 0]
            if len(nz) == 2:
                pair, ids = (b[4 * g + nz[0], j], b[4 * g + nz[1], j]), (nz[0], nz[1] - 1)
            elif len(nz) == 1 and nz[0] == 3:
                pair, ids = (0, b[4 * g + 3, j]), (0, 2)
            elif len(nz) == 1:
                pair, ids = (b[4 * g + nz[0], j], 0), (nz[0], 0)
            else:
                pair, ids = (0, 0), (0, 0)
            dense[2 * g:2 * g + 2, j] = pair
            idx[2 * g:2 * g + 2, j] = ids
    return dense, idx


def a2_image(a):
    """A (m x k) as ZZ fractals: 16 rows x 32 columns each, row-major over (row block, k block)."""
    m, k = a.shape
    M, K = up(m, 16), up(k, 32)
    p = np.zeros((M, K), np.int8)
    p[:m, :k] = a
    return p.reshape(M // 16, 16, K // 32, 32).transpose(0, 2, 1, 3).ravel()


def b2_image(b):
    """B (k x n) as B2 fractals: (k block, column block), each 16 columns of 32 k values."""
    k, n = b.shape
    K, N = up(k, 32), up(n, 16)
    p = np.zeros((K, N), b.dtype)
    p[:k, :n] = b
    return p.reshape(K // 32, 32, N // 16, 16).transpose(0, 2, 3, 1).ravel()


def pack_index(idx_image):
    """Four 2-bit indices per byte, the first in the low bits."""
    q = idx_image.reshape(-1, 4).astype(np.uint8)
    return (q[:, 0] | (q[:, 1] << 2) | (q[:, 2] << 4) | (q[:, 3] << 6)).astype(np.uint8)


def run(built, which, a, dense, idx, m, n, k, q=None):
    c = np.full(m * n, np.iinfo(np.int32).min, np.int32)
    q = np.zeros(up(n, 16), np.uint64) if q is None else q
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc,
                     {"a": a.ravel() if which in (5, 6) else a2_image(a), "b": b2_image(dense), "idx": pack_index(b2_image(idx)), "q": q}, {"c": c},
                     {"which": which, "m": m, "n": n, "k": k})
    return c


@pytest.mark.parametrize("m,n,k", [(20, 40, 128), (16, 16, 64), (33, 48, 192)])
def test_sparse_product_matches_the_dense_one(built, m, n, k):
    rng = np.random.default_rng(m * n + k)
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = sparse_b(k, n, rng)
    dense, idx = densify(b)
    got = run(built, 1, a, dense, idx, m, n, k).reshape(m, n)
    np.testing.assert_array_equal(got, a.astype(np.int64) @ b.astype(np.int64))


def test_index_three_is_reported(built):
    m, n, k = 16, 16, 64
    rng = np.random.default_rng(1)
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    dense, idx = densify(sparse_b(k, n, rng))
    idx[5, 3] = 3
    with pytest.raises(runtime.SimError) as e:
        run(built, 1, a, dense, idx, m, n, k)
    assert f"cube_sparse.cpp:{simbuild.line_of(KERNEL, 'mmad')}" in str(e.value)
    assert "is 3; indices are 0, 1 or 2" in str(e.value)


def test_product_without_the_index_load_is_reported(built):
    m, n, k = 16, 16, 64
    rng = np.random.default_rng(2)
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    dense, idx = densify(sparse_b(k, n, rng))
    with pytest.raises(runtime.SimError) as e:
        run(built, 2, a, dense, idx, m, n, k)
    assert f"cube_sparse.cpp:{simbuild.line_of(KERNEL, 'mmad')}" in str(e.value)
    assert "never loaded" in str(e.value)


def test_fixpipe_per_channel_dequantisation(built):
    # VDEQF16: column j scaled by q[j], read as Fixpipe reads a scale (its float's low 13 mantissa
    # bits dropped), then rounded to half
    m, n, k = 20, 40, 128
    rng = np.random.default_rng(4)
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = sparse_b(k, n, rng)
    dense, idx = densify(b)
    scales = rng.uniform(0.0001, 0.01, up(n, 16)).astype(np.float32)
    q = scales.view(np.uint32).astype(np.uint64)
    got = run(built, 3, a, dense, idx, m, n, k, q=q).view(np.float16)[:m * n].reshape(m, n)
    read = (scales.view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)[:n]
    acc = (a.astype(np.int64) @ b.astype(np.int64)).astype(np.float32)
    np.testing.assert_array_equal(got, (acc * read[None, :]).astype(np.float16))
    with pytest.raises(runtime.SimError) as e:
        run(built, 4, a, dense, idx, m, n, k, q=q)
    assert f"cube_sparse.cpp:{simbuild.line_of(KERNEL, 'vdeq')}" in str(e.value)
    assert "use the Fixpipe overload with a cbufWorkspace" in str(e.value)


@pytest.mark.parametrize("m,n,k", [(20, 40, 128), (33, 48, 192)])
def test_matmul_api_with_a_sparse_b(built, m, n, k):
    """The Matmul API's SparseMatmulType B (ops-nn's sparse4to2quant_matmul): the densified B^T in
    GM NZ and SetSparseIndex's index (NZ, 8-byte rows: the B2 images above) give the dense product;
    without SetSparseIndex the product is refused at its line."""
    rng = np.random.default_rng(m + n * k)
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = sparse_b(k, n, rng)
    dense, idx = densify(b)
    got = run(built, 5, a, dense, idx, m, n, k).reshape(m, n)
    np.testing.assert_array_equal(got, a.astype(np.int64) @ b.astype(np.int64))
    with pytest.raises(runtime.SimError) as e:
        run(built, 6, a, dense, idx, m, n, k)
    assert f"cube_sparse.cpp:{simbuild.line_of(KERNEL, 'mm-sparse')}" in str(e.value)
    assert "no SetSparseIndex gave its index" in str(e.value)
