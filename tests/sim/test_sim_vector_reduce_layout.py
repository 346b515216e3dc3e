"""Per-repeat and per-block reductions (WholeReduceMax/Min, BlockReduceSum/Max/Min), Gather,
Brcb, Transpose and DataCopyPad's padding against NumPy, in float32 and float16, through the
VecOps test kernel (tests/sim/pkgs/ops)."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

from opkg.core.socs import get_soc
from opkg.sim import flags
from opkg.sim.runtime import SimError
import simbuild
from test_sim_vector_ops import OP, PADDED, built, level0_index, run  # noqa: F401  (built is a fixture)


def dtype_of(built):
    return np.dtype(built.variant.dtype_of("x")).type


def per_repeat(dtype):
    return 256 // np.dtype(dtype).itemsize


def per_block(dtype):
    return 32 // np.dtype(dtype).itemsize


def index_view(z):
    """The index slots of value/index pairs: the element's bits as an unsigned integer."""
    return z.view(np.uint16 if z.dtype == np.float16 else np.uint32)


def small_ints(dtype, seed=1):
    # Few distinct values: every repeat has ties, and the smallest index must win.
    return np.random.default_rng(seed).integers(0, 6, PADDED).astype(dtype)


def tree(values, dtype, op=np.add):
    """Pairwise tree over adjacent elements, rounded to `dtype` after every step (the vector
    unit's order); an odd element moves up unchanged."""
    level = [np.float32(v) for v in values]
    while len(level) > 1:
        nxt = [np.float32(dtype(op(level[2 * i], level[2 * i + 1]))) for i in range(len(level) // 2)]
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    return level[0]


def test_whole_reduce_max_value_index_pairs(built):
    dtype = dtype_of(built)
    x = small_ints(dtype)
    z = run(built, 100, x, x.copy())
    per = per_repeat(dtype)
    for r in range(4):
        seg = x[r * per:(r + 1) * per]
        assert z[2 * r] == seg.max()
        assert index_view(z)[2 * r + 1] == np.argmax(seg)
    assert np.all(z[8:] == 0)


def test_whole_reduce_min_index_value_with_dst_stride(built):
    dtype = dtype_of(built)
    x = small_ints(dtype, seed=2)
    z = run(built, 101, x, x.copy())
    per = per_repeat(dtype)
    for r in range(3):
        seg = x[r * per:(r + 1) * per]
        assert index_view(z)[4 * r] == np.argmin(seg)
        assert z[4 * r + 1] == seg.min()
        assert z[4 * r + 2] == 0 and z[4 * r + 3] == 0       # dstRepStride 2 pairs: a gap
    assert np.all(z[12:] == 0)


def test_whole_reduce_max_only_value_bit_mask_and_block_stride(built):
    dtype = dtype_of(built)
    x = np.random.default_rng(3).uniform(-4, 4, PADDED).astype(dtype)
    z = run(built, 102, x, x.copy())
    per = per_repeat(dtype)
    for r in range(2):
        lanes = [level0_index(dtype, r, j, 2, 16) for j in range(0, per, 2)]
        assert z[r] == x[lanes].max()
    assert np.all(z[2:] == 0)


def test_whole_reduce_min_only_index_with_short_mask(built):
    dtype = dtype_of(built)
    x = small_ints(dtype, seed=4)
    n = 37                            # fewer lanes than a repeat
    z = run(built, 103, x, x.copy(), count=n)
    per = per_repeat(dtype)
    idx = z.view(np.uint32)           # ORDER_ONLY_INDEX: uint32 indices for half and float
    for r in range(3):
        assert idx[r] == np.argmin(x[r * per:r * per + n])
    assert np.all(idx[3:] == 0)


def test_block_reduce_sum_is_a_rounded_tree_per_block(built):
    dtype = dtype_of(built)
    x = np.random.default_rng(5).uniform(-2, 2, PADDED).astype(dtype)
    z = run(built, 110, x, x.copy())
    pb = per_block(dtype)
    want = [tree(x[k * pb:(k + 1) * pb], dtype) for k in range(32)]
    np.testing.assert_array_equal(z[:32], np.array(want, dtype))
    assert np.all(z[32:] == 0)


def test_block_reduce_max_partial_mask_leaves_empty_blocks_alone(built):
    dtype = dtype_of(built)
    x = np.random.default_rng(6).uniform(-2, -0.1, PADDED).astype(dtype)   # all negative
    pb, per = per_block(dtype), per_repeat(dtype)
    n = per - pb - pb // 2            # 6 full blocks, half of block 6, nothing of block 7
    z = run(built, 111, x, x.copy(), count=n)
    for r in range(2):
        for b in range(7):
            lanes = [r * per + j for j in range(b * pb, min((b + 1) * pb, n))]
            assert z[16 * r + b] == x[lanes].max()
        assert z[16 * r + 7] == 0     # no active lane: not written (A2/A3)
        assert np.all(z[16 * r + 8:16 * r + 16] == 0)


def test_block_reduce_min_bit_mask_and_block_stride(built):
    dtype = dtype_of(built)
    x = np.random.default_rng(7).uniform(0.1, 2, PADDED).astype(dtype)     # all positive
    pb, per = per_block(dtype), per_repeat(dtype)
    active = [j for j in range(per) if (j % 16) < 8]     # mask 0x00ff...
    z = run(built, 112, x, x.copy())
    for r in range(2):
        for b in range(8):
            lanes = [level0_index(dtype, r, j, 2, 16) for j in active if j // pb == b]
            assert z[8 * r + b] == (x[lanes].min() if lanes else 0)
    assert np.all(z[16:] == 0)


def test_gather_count_form_reverses_by_byte_offsets(built):
    dtype = dtype_of(built)
    x = np.random.default_rng(8).uniform(-2, 2, PADDED).astype(dtype)
    n = 1000                          # whole repeats and a masked tail
    z = run(built, 120, x, x.copy(), count=n)
    np.testing.assert_array_equal(z[:n], x[:n][::-1])
    assert np.all(z[n:] == 0)


def test_gather_level0_base_address_mask_and_dst_stride(built):
    dtype = dtype_of(built)
    x = np.random.default_rng(9).uniform(-2, 2, PADDED).astype(dtype)
    z = run(built, 121, x, x.copy())
    pb, per = per_block(dtype), per_repeat(dtype)
    want = np.zeros(PADDED, dtype)
    base = 32 // np.dtype(dtype).itemsize
    for r in range(2):
        for j in range(0, per, 2):
            want[r * 16 * pb + j] = x[base + (7 * (r * per + j)) % 256]
    np.testing.assert_array_equal(z, want)


def test_brcb_fills_blocks_with_strides(built):
    dtype = dtype_of(built)
    x = np.random.default_rng(10).uniform(-2, 2, PADDED).astype(dtype)
    z = run(built, 130, x, x.copy())
    pb = per_block(dtype)
    want = np.zeros(PADDED, dtype)
    for i in range(4):
        for j in range(8):
            start = (i * 16 + j * 2) * pb
            want[start:start + pb] = x[i * 8 + j]
    np.testing.assert_array_equal(z, want)


def test_brcb_makes_only_the_blocks_of_undefined_elements_undefined(built):
    """asc-devkit's Brcb reference: element 8 * i + j fills block j of repeat i, and nothing
    else; its definedness likewise (hicann/ops-nn norm/rms_norm/op_kernel/rms_norm_merge_n.h
    broadcasts one rstd per row with repeatTime = rows)."""
    dtype = dtype_of(built)
    x = np.zeros(PADDED, dtype)
    z = run(built, 132, x, x.copy(), scalar=1.5)
    count = 8 * per_block(dtype)
    np.testing.assert_array_equal(z[:count], np.full(count, 1.5, dtype))
    # the blocks of the 8 elements nothing wrote are still undefined when they reach GM
    with pytest.raises(SimError, match=r"stores undefined values into bytes \[256, 512\) of 'z'"):
        run(built, 133, x, x.copy(), scalar=1.5)


def test_transpose_16x16(built):
    dtype = dtype_of(built)
    x = np.random.default_rng(11).uniform(-2, 2, PADDED).astype(dtype)
    z = run(built, 131, x, x.copy())
    xs, zs = x.view(np.uint16), z.view(np.uint16)
    for k in range(2):
        np.testing.assert_array_equal(zs[256 * k:256 * (k + 1)], xs[256 * k:256 * (k + 1)].reshape(16, 16).T.ravel())
    assert np.all(zs[512:] == 0)


def test_reduce_sum_count_form_chains_repeat_sums_on_a2(built):
    # A2/A3 count form: a tree inside each repeat, repeat sums added one after another:
    # ((big + 1) + 1) + 1 rounds back to big at every step; a tree over the repeat sums
    # would give (big + 1) + (1 + 1) = big + 2.
    dtype = dtype_of(built)
    per = per_repeat(dtype)
    big = 2.0 ** (np.finfo(dtype).nmant + 1)
    x = np.zeros(PADDED, dtype)
    x[[0, per, 2 * per, 3 * per]] = [big, 1, 1, 1]
    z = run(built, 40, x, x.copy(), count=4 * per)
    assert float(z[0]) == big


def test_datacopy_pad_uses_set_pad_value(built):
    dtype = dtype_of(built)
    x = np.random.default_rng(12).uniform(-2, 2, PADDED).astype(dtype)
    s = dtype(-3.0)
    z = run(built, 140, x, x.copy(), scalar=-3.0, count=5)
    pe = per_block(dtype)
    for row in range(2):
        want = np.full(pe, s)
        want[1:6] = x[5 * row:5 * row + 5]
        np.testing.assert_array_equal(z[row * pe:(row + 1) * pe], want)


def test_datacopy_pad_without_padding_repeats_the_first_element(built):
    dtype = dtype_of(built)
    x = np.random.default_rng(13).uniform(-2, 2, PADDED).astype(dtype)
    z = run(built, 141, x, x.copy(), count=5)
    pe = per_block(dtype)
    for row in range(2):
        want = np.full(pe, x[5 * row])
        want[:5] = x[5 * row:5 * row + 5]
        np.testing.assert_array_equal(z[row * pe:(row + 1) * pe], want)


def test_datacopy_pad_padding_without_a_value_is_undefined(built):
    dtype = dtype_of(built)
    x = np.ones(PADDED, dtype)
    # the padding is undefined: copying it around is allowed, storing it to the output is reported
    with pytest.raises(SimError, match=r"stores undefined values into bytes \[0, \d\) of 'z': DataCopy UB->UB at "
                                       ".* read source bytes that nothing wrote"):
        run(built, 142, x, x.copy(), count=5)


def test_datacopy_pad_register_keeps_the_last_padding_value(built):
    dtype = dtype_of(built)
    x = np.random.default_rng(14).uniform(-2, 2, PADDED).astype(dtype)
    s = dtype(0.75)
    z = run(built, 143, x, x.copy(), scalar=0.75, count=5)
    pe = per_block(dtype)
    first = np.full(pe, s)
    first[:5] = x[:5]
    second = np.full(pe, s)
    second[1:6] = x[:5]
    np.testing.assert_array_equal(z[:2 * pe], np.concatenate([first, second]))


def test_datacopy_pad_padding_mode_parameter_where_the_headers_have_it(pkgs, lib_cache):
    """`DataCopyPad<T, PaddingMode::Normal>` compiles for the Ascend 950 (__NPU_ARCH__ 3510),
    whose headers declare the parameter, and copies as the default mode does."""
    soc = get_soc("Ascend950PR_9599")
    built950 = simbuild.build(pkgs / "ops", OP, OP.variant("float32"), soc, lib_cache,
                              stem="vec_ops")
    x = np.random.default_rng(15).uniform(-2, 2, PADDED).astype(np.float32)
    z = run(built950, 144, x, x.copy(), scalar=2.5, count=5)
    np.testing.assert_array_equal(z[:8], np.concatenate([x[:5], np.full(3, np.float32(2.5))]))


@pytest.mark.parametrize("arch, compiles", [(2201, False), (3510, True)])
def test_padding_mode_parameter_exists_only_in_the_950_headers(tmp_path, arch, compiles):
    src = tmp_path / "k.cpp"
    src.write_text('#include "kernel_operator.h"\n'
                   "void f(AscendC::LocalTensor<float> d, AscendC::GlobalTensor<float> g) {\n"
                   "    AscendC::DataCopyPad<float, AscendC::PaddingMode::Normal>(d, g, {1, 20, 0, 0, 0}, {});\n"
                   "}\n")
    proc = subprocess.run([simbuild.CXX, "-std=c++17", "-fsyntax-only", f"-D__NPU_ARCH__={arch}",
                           f"-I{flags.include_dir()}", str(src)], capture_output=True, text=True)
    assert (proc.returncode == 0) == compiles, proc.stderr


def test_reduce_max_level0_with_index(built):
    dtype = dtype_of(built)
    x = small_ints(dtype, seed=16)
    z = run(built, 150, x, x.copy())
    n = 4 * per_repeat(dtype)
    assert z[0] == x[:n].max()
    assert index_view(z)[1] == np.argmax(x[:n])      # r * perRepeat + lane, the first on ties
    assert np.all(z[2:] == 0)


def test_reduce_min_level0_bit_mask_and_repeat_stride(built):
    dtype = dtype_of(built)
    x = np.random.default_rng(17).uniform(-2, 2, PADDED).astype(dtype)
    z = run(built, 151, x, x.copy())
    per = per_repeat(dtype)
    lanes = [level0_index(dtype, r, j, 1, 16) for r in range(3) for j in range(0, per, 2)]
    assert z[0] == x[lanes].min()
    assert np.all(z[1:] == 0)


def test_reduce_sum_level0_is_a_tree_of_repeat_trees(built):
    dtype = dtype_of(built)
    x = np.random.default_rng(18).uniform(-2, 2, PADDED).astype(dtype)
    n = 37
    z = run(built, 152, x, x.copy(), count=n)
    per = per_repeat(dtype)
    partial = [tree(x[r * per:r * per + n], dtype) for r in range(5)]
    assert z[0] == dtype(tree(partial, dtype))
    assert np.all(z[1:] == 0)
    # Repeat sums big, 1, 1, 1, 0: a tree gives (big + 1) + (1 + 1) = big + 2 where adding them
    # in order would round back to big at every step.
    big = 2.0 ** (np.finfo(dtype).nmant + 1)
    x = np.zeros(PADDED, dtype)
    x[[0, per, 2 * per, 3 * per]] = [big, 1, 1, 1]
    z = run(built, 152, x, x.copy(), count=n)
    assert float(z[0]) == big + 2
