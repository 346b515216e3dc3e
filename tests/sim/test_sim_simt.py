"""SIMT on the sim (opkg_sim/simt): SIMT functions launched from a vector kernel with
asc_vf_call<f>(dim3(n), ...) as ops-nn's Ascend 950 kernels do, run as one fibre per thread,
checked against NumPy; races between threads, a divergent barrier and an index past a buffer are
reported with the kernel's file:line."""

from __future__ import annotations

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, TensorSpec
from opkg.core.socs import get_soc
from opkg.sim import runtime
import simbuild

OP = OpSpec("SimtKernels", (TensorSpec("x", ("float32",)), TensorSpec("idx", ("int32",))),
            (TensorSpec("y", ("float32",)),),
            (AttrSpec("which", "int", required=True), AttrSpec("blocks", "int", required=True)))


@pytest.fixture(scope="module")
def built(pkgs, lib_cache):
    return simbuild.build(pkgs / "simt", OP, OP.variants()[0], get_soc("Ascend950PR_9599"),
                          lib_cache, stem="simt_kernels")


def run(built, which, x, idx, ylen, blocks=1):
    y = np.zeros(ylen, np.float32)
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x, "idx": idx}, {"y": y},
                     {"which": which, "blocks": blocks})
    return y


def failure(built, *args, **kwargs) -> runtime.SimError:
    """The error a run that must fail raises."""
    with pytest.raises(runtime.SimError) as e:
        run(built, *args, **kwargs)
    return e.value


def kernel_path(pkgs):
    return pkgs / "simt" / "op_kernel" / "simt_kernels.cpp"


def test_gather_over_blocks_and_threads(built):
    rng = np.random.default_rng(1)
    x = rng.standard_normal(3000).astype(np.float32)
    idx = rng.integers(0, x.size, 5000).astype(np.int32)
    y = run(built, 1, x, idx, idx.size, blocks=3)
    np.testing.assert_array_equal(y, x[idx])


def test_scatter_add_with_atomics_and_a_barrier(built):
    rng = np.random.default_rng(2)
    x = rng.integers(-8, 8, 4000).astype(np.float32)      # integers: the sum is exact in any order
    idx = rng.integers(0, 37, x.size).astype(np.int32)    # many threads add to each bucket
    y = run(built, 2, x, idx, 37)
    want = np.zeros(37, np.float32)
    np.add.at(want, idx, x)
    np.testing.assert_array_equal(y, want)


def test_block_sums_in_shared_memory(built):
    rng = np.random.default_rng(3)
    x = rng.integers(-100, 100, 10000).astype(np.float32)
    blocks = 4
    y = run(built, 3, x, np.zeros(1, np.int32), blocks, blocks=blocks)
    chunk = -(-x.size // blocks)
    np.testing.assert_array_equal(y, [x[b * chunk:(b + 1) * chunk].sum() for b in range(blocks)])


def test_missing_barrier_is_a_race_with_file_line(built, pkgs):
    x = np.ones(1024, np.float32)
    err = failure(built, 4, x, np.zeros(1, np.int32), 1)
    assert str(err.file).endswith("simt_kernels.cpp")
    assert err.line == simbuild.line_of(kernel_path(pkgs), "tree")
    assert "data race between SIMT threads" in err.message and "UB byte" in err.message
    assert "asc_syncthreads" in err.message


def test_plain_increment_in_gm_is_a_race(built, pkgs):
    idx = np.array([3, 5, 3, 7], np.int32)              # threads 0 and 2 both add to y[3]
    err = failure(built, 6, np.zeros(1, np.float32), idx, 8)
    assert err.line == simbuild.line_of(kernel_path(pkgs), "histogram")
    assert "thread 2" in err.message and "thread 0" in err.message and "'y'" in err.message


def test_divergent_barrier(built, pkgs):
    err = failure(built, 5, np.zeros(1, np.float32), np.zeros(1, np.int32), 256)
    assert err.line == simbuild.line_of(kernel_path(pkgs), "divergent")
    assert "thread 1 returned" in err.message


def test_index_past_the_buffer(built, pkgs):
    x = np.ones(64, np.float32)
    idx = np.array([0, 1, 64 + 5000], np.int32)
    err = failure(built, 1, x, idx, idx.size)
    assert err.line == simbuild.line_of(kernel_path(pkgs), "gather")
    assert "thread 2" in err.message and "past the end" in err.message and "'x'" in err.message


def test_blocks_storing_different_values_to_one_element_race(built, pkgs):
    err = failure(built, 7, np.zeros(1, np.float32), np.zeros(1, np.int32), 4, blocks=2)
    assert err.line == simbuild.line_of(kernel_path(pkgs), "blocks")
    assert "blocks 0 and 1 both write bytes [0, 4) of 'y'" in err.message


def test_threads_storing_the_same_value_to_one_element_do_not_race(built):
    """Plain stores of repeated indices (ops-nn's scatter_update): equal values leave the element
    as either order would, so the device computes one result and the sim says nothing."""
    idx = np.array([3, 5, 3, 7, 3], np.int32)
    x = np.array([2, 4, 2, 6, 2], np.float32)
    y = run(built, 13, x, idx, 8)
    np.testing.assert_array_equal(y, [0, 0, 0, 2, 0, 4, 0, 6])


def test_threads_storing_different_values_to_one_element_race(built, pkgs):
    idx = np.array([3, 5, 3, 7], np.int32)
    err = failure(built, 13, np.array([2, 4, 9, 6], np.float32), idx, 8)
    assert err.line == simbuild.line_of(kernel_path(pkgs), "scatter")
    assert "thread 2 of block 0 writes byte 12 of 'y', which thread 0 wrote" in err.message, err.message


def test_write_after_another_threads_read_is_a_race(built, pkgs):
    # thread 0 reads y[0] before any thread has stored to y (the read only logged), thread 1 then
    # overwrites it: the write names the read
    err = failure(built, 8, np.zeros(1, np.float32), np.zeros(1, np.int32), 16)
    assert err.line == simbuild.line_of(kernel_path(pkgs), "rotate")
    assert "thread 1 of block 0 writes byte 0 of 'y', which thread 0 read" in err.message


@pytest.mark.parametrize("which, descending", [(9, False), (10, True)])
def test_sort_with_a_sort_config_is_stable_with_positions(built, which, descending):
    # the 950's Sort<T, isReuseSource, config>(dst, dstIndex, src, calCount): ties (many here)
    # keep their source order, both ways
    x = np.random.default_rng(9).integers(-6, 6, 64).astype(np.float32)
    y = run(built, which, x, np.zeros(1, np.int32), 2 * x.size)
    order = np.argsort(-x if descending else x, kind="stable")
    np.testing.assert_array_equal(y[:x.size], x[order])
    np.testing.assert_array_equal(y[x.size:].view(np.uint32), order)


@pytest.mark.parametrize("divisor", [1, 3, 7, 64, 193])
def test_division_by_magic_number(built, divisor):
    y = run(built, 11, np.zeros(1, np.float32), np.array([divisor], np.int32), 3000)
    np.testing.assert_array_equal(y, np.arange(3000) // divisor)


def test_hardware_syncall_runs_on_the_950(built):
    # dav_3510 has the hardware all-core sync (ops-nn's segment_sum clears its output, then syncs)
    y = run(built, 12, np.zeros(1, np.float32), np.zeros(1, np.int32), 4, blocks=4)
    np.testing.assert_array_equal(y, [0, 1, 2, 3])


def test_builtins_are_each_threads_own_values_across_a_barrier(built):
    """threadIdx, blockDim, blockIdx and gridDim are read-only to kernels (loaded once, not
    hooked by the race checks): a thread still reads its own values after asc_syncthreads(),
    where the other threads ran, and blockDim copies into a dim3."""
    blocks, threads = 2, 256
    y = run(built, 14, np.zeros(1, np.float32), np.zeros(1, np.int32), blocks * threads, blocks=blocks)
    t = np.tile(np.arange(threads), blocks)
    np.testing.assert_array_equal(y, t * 1000 + threads + blocks)


def test_simt_cast_rounds_to_nearest_even_and_saturates(built):
    """Simt::Cast<int32_t, float, CAST_RINT, SAT>: halves to even, out-of-range values clamped
    to int32's range, NaN to 0."""
    x = np.array([2.5, 3.5, -2.5, 0.49, 1e10, -1e10, np.nan, 7.0], np.float32)
    y = run(built, 15, x, np.zeros(x.size, np.int32), x.size)
    np.testing.assert_array_equal(y, np.array([2, 4, -2, 0, 2**31 - 1, -2**31, 0, 7], np.float64).astype(np.float32))
